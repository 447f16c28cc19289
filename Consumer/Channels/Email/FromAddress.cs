using MimeKit;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// <c>Smtp:From</c> read by MimeKit's address parser: one mailbox, a bare address (<c>billing@acme.example</c>) or one with
/// a display name (<c>Acme Billing &lt;billing@acme.example&gt;</c>, <c>"Acme, Inc." &lt;billing@acme.example&gt;</c>). The
/// header carries the name, which MimeKit encodes per RFC 2047 when it is not ASCII; MAIL FROM carries the bare address.
/// </summary>
internal static class FromAddress
{
    // Strict, and an address needs its domain: MimeKit's lenient defaults would take "Acme <billing>".
    private static readonly ParserOptions Strict = CreateStrict();

    /// <summary>The mailbox of <paramref name="value"/>, or why it is not one.</summary>
    public static MailboxAddress? TryParse(string? value, out string? error)
    {
        error = Check(value, out var mailbox);
        return mailbox;
    }

    /// <summary>The mailbox of <paramref name="value"/>.</summary>
    /// <exception cref="ArgumentException">It is not one mailbox.</exception>
    public static MailboxAddress Parse(string value) =>
        TryParse(value, out string? error) ?? throw new ArgumentException(error, nameof(value));

    private static string? Check(string? value, out MailboxAddress? mailbox)
    {
        mailbox = null;
        if (string.IsNullOrWhiteSpace(value))
        {
            return "Smtp:From is empty: give an address, e.g. 'billing@acme.example' or 'Acme Billing <billing@acme.example>'.";
        }

        // MimeKit unfolds a line break in a header value; in configuration it can only be an injection attempt.
        if (value.AsSpan().ContainsAny('\r', '\n'))
        {
            return "Smtp:From contains CR or LF.";
        }

        if (!InternetAddressList.TryParse(Strict, value, out var list))
        {
            return $"Smtp:From '{value}' is not an address: give 'billing@acme.example' or 'Acme Billing <billing@acme.example>' (quote a name with a comma: '\"Acme, Inc.\" <billing@acme.example>').";
        }

        if (list.Count != 1 || list[0] is not MailboxAddress { Route.Count: 0 } single)
        {
            return $"Smtp:From '{value}' is {list.Count} addresses or a group: it must be one mailbox (quote a name with a comma: '\"Acme, Inc.\" <billing@acme.example>').";
        }

        if (single.Address.LastIndexOf('@') is var at && (at <= 0 || at == single.Address.Length - 1))
        {
            return $"Smtp:From '{value}' has no domain: the address must be local@domain.";
        }

        mailbox = single;
        return null;
    }

    private static ParserOptions CreateStrict()
    {
        var options = ParserOptions.Default.Clone();
        options.AddressParserComplianceMode = RfcComplianceMode.Strict;
        options.AllowAddressesWithoutDomain = false;
        return options;
    }
}
