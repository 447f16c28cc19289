namespace Notifications.Shared.Contract;

/// <summary>
/// Which custom headers a notification may carry (the outbox's <c>headers</c> column). Plain .NET only: this
/// file is compiled into the client package as well, so an app hears at enqueue what a consumer would
/// otherwise dead-letter.
/// </summary>
internal static class CustomHeaderRules
{
    /// <summary>The most custom headers one notification may carry.</summary>
    public const int MaxHeaders = 50;

    /// <summary>The longest field name, in characters: with ": " and a short value it still fits a 78-character line.</summary>
    public const int MaxNameLength = 76;

    /// <summary>The longest value, in characters (RFC 5322's 998 per line; MimeKit folds and encodes longer lines).</summary>
    public const int MaxValueLength = 998;

    // Written by the consumer (MimeMessageBuilder, MimeKit, the DKIM signer) or by the relays on the way; a
    // custom header of the same name would duplicate or contradict them.
    private static readonly HashSet<string> Owned = new(StringComparer.OrdinalIgnoreCase)
    {
        "From", "Sender", "To", "Cc", "Bcc", "Reply-To", "Subject", "Date", "Message-ID", "MIME-Version",
        "Content-Type", "Content-Transfer-Encoding", "DKIM-Signature", "List-Unsubscribe", "List-Unsubscribe-Post",
        "X-Notification-Id", "Return-Path", "Received",
    };

    // Whole families: every Content-* describes the body the consumer builds, every Resent-* belongs to a resend.
    private static readonly string[] OwnedPrefixes = ["Content-", "Resent-", "ARC-"];

    /// <summary>Whether the consumer (or a relay) writes <paramref name="name"/> itself.</summary>
    public static bool IsOwned(string name) =>
        Owned.Contains(name) || OwnedPrefixes.Any(prefix => name.StartsWith(prefix, StringComparison.OrdinalIgnoreCase));

    /// <summary>Null when <paramref name="name"/>: <paramref name="value"/> may be sent as a custom header; otherwise why not.</summary>
    public static string? Check(string name, string? value)
    {
        if (name.Length is 0 or > MaxNameLength || !IsFieldName(name))
        {
            return $"'{Shown(name)}' is not a header field name (1 to {MaxNameLength} printable ASCII characters, no colon or space; RFC 5322 3.6.8)";
        }

        if (IsOwned(name))
        {
            return $"'{name}' is set by the system and cannot be overridden";
        }

        if (value is null)
        {
            return $"'{name}' has no value (a JSON string is required)";
        }

        if (value.AsSpan().ContainsAny('\r', '\n'))
        {
            return $"the value of '{name}' contains CR or LF (header injection)";
        }

        if (value.Any(c => char.IsControl(c) && c != '\t'))
        {
            return $"the value of '{name}' contains a control character";
        }

        return value.Length > MaxValueLength ? $"the value of '{name}' is longer than {MaxValueLength} characters" : null;
    }

    // RFC 5322 3.6.8: ftext is printable US-ASCII except the colon.
    private static bool IsFieldName(string name) => !name.AsSpan().ContainsAnyExceptInRange('!', '~') && !name.Contains(':', StringComparison.Ordinal);

    private static string Shown(string value) => value.Length <= 40 ? value : value[..40] + "...";
}
