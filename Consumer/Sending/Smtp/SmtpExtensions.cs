using System.Globalization;

namespace Notifications.Consumer.Sending.Smtp;

/// <summary>The service extensions a server announced in its EHLO reply (RFC 5321 4.1.1.1) that this client uses.</summary>
internal sealed record SmtpExtensions(
    bool Pipelining,
    bool EightBitMime,
    bool SmtpUtf8,
    bool StartTls,
    bool AuthPlain,
    bool AuthLogin,
    long? MaxSize)
{
    /// <summary>What a server that only answered HELO offers.</summary>
    public static SmtpExtensions None { get; } = new(false, false, false, false, false, false, null);

    /// <summary>Parses the text of a 250 EHLO reply: the first line greets, each later one names an extension.</summary>
    public static SmtpExtensions Parse(string ehloText)
    {
        ArgumentNullException.ThrowIfNull(ehloText);
        SmtpExtensions result = None;
        foreach (string line in ehloText.Split('\n').Skip(1))
        {
            result = Apply(result, line.Trim());
        }

        return result;
    }

    public override string ToString()
    {
        var names = new List<string>(6);
        if (Pipelining)
        {
            names.Add("PIPELINING");
        }

        if (EightBitMime)
        {
            names.Add("8BITMIME");
        }

        if (SmtpUtf8)
        {
            names.Add("SMTPUTF8");
        }

        if (StartTls)
        {
            names.Add("STARTTLS");
        }

        if (AuthPlain || AuthLogin)
        {
            names.Add("AUTH" + (AuthPlain ? " PLAIN" : "") + (AuthLogin ? " LOGIN" : ""));
        }

        if (MaxSize is long size)
        {
            names.Add(string.Create(CultureInfo.InvariantCulture, $"SIZE {size}"));
        }

        return names.Count == 0 ? "(none)" : string.Join(", ", names);
    }

    private static SmtpExtensions Apply(SmtpExtensions current, string line)
    {
        // "AUTH=PLAIN LOGIN" is the pre-standard form some servers still send next to "AUTH PLAIN LOGIN".
        int separator = line.AsSpan().IndexOfAny(' ', '=');
        string keyword = (separator < 0 ? line : line[..separator]).ToUpperInvariant();
        string parameters = separator < 0 ? "" : line[(separator + 1)..];
        return keyword switch
        {
            "PIPELINING" => current with { Pipelining = true },
            "8BITMIME" => current with { EightBitMime = true },
            "SMTPUTF8" => current with { SmtpUtf8 = true },
            "STARTTLS" => current with { StartTls = true },
            "AUTH" => current with
            {
                AuthPlain = current.AuthPlain || HasWord(parameters, "PLAIN"),
                AuthLogin = current.AuthLogin || HasWord(parameters, "LOGIN"),
            },
            "SIZE" => current with { MaxSize = ParseSize(parameters) },
            _ => current,
        };
    }

    private static bool HasWord(string parameters, string word) =>
        parameters.Split(' ', StringSplitOptions.RemoveEmptyEntries)
            .Contains(word, StringComparer.OrdinalIgnoreCase);

    // RFC 1870: "SIZE" alone or "SIZE 0" announces no fixed limit.
    private static long? ParseSize(string parameters) =>
        long.TryParse(parameters.Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out long size) && size > 0
            ? size
            : null;
}
