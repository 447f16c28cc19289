namespace Notifications.Shared.Contract;

/// <summary>
/// A row's own From display name (the outbox's <c>from_name</c>): the sender's address stays the consumer's configured
/// <c>Smtp:From</c>, whose domain DKIM signs and SPF authorizes, so a row may vary the name only. Plain .NET only: this file
/// is compiled into the client package as well, so an app hears at enqueue what the consumer would dead-letter.
/// </summary>
internal static class FromNameRules
{
    /// <summary>The longest display name, in characters (code points): a name a mail program shows whole, well inside a header line.</summary>
    public const int MaxLength = 100;

    /// <summary>Null when <paramref name="name"/> (null: the configured name) can be the From header's display name; otherwise why not.</summary>
    public static string? FromName(string? name) => name switch
    {
        null => null,
        _ when string.IsNullOrWhiteSpace(name) => "invalid from name: empty or blank (leave it null for Smtp:From's name)",
        _ when EmailRules.Characters(name) > MaxLength => $"invalid from name: longer than {MaxLength} characters",
        // MimeKit would fold or encode a line break away; in a name it can only be an injection attempt.
        _ when name.Any(char.IsControl) => "invalid from name: contains CR, LF or another control character (header injection)",
        _ => null,
    };
}
