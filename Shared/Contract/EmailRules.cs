using System.Net.Mail;

namespace Notifications.Shared.Contract;

/// <summary>
/// The e-mail fields' rules, one field at a time, with the reason a field is refused. Plain .NET only: this file is
/// compiled into the client package as well, so an app hears at enqueue (an <see cref="ArgumentException"/> naming
/// the field) what the consumer would otherwise dead-letter; <c>NotificationValidator</c> applies them to a
/// whole message before the send. Lengths are counted in characters (Unicode code points), the unit of the outbox's
/// columns in both dialects.
/// </summary>
internal static class EmailRules
{
    /// <summary>The outbox's recipient column, in characters (RFC 5321: local part 64 + @ + domain 255).</summary>
    public const int MaxRecipientLength = 320;

    /// <summary>
    /// The outbox's subject column, in characters. Taken from RFC 5322's 998, which limits a header line in
    /// octets, not the subject: MimeKit folds and encodes a long subject into lines well under it.
    /// </summary>
    public const int MaxSubjectLength = 998;

    /// <summary>The largest body sent, in characters: a notification, not a file transfer (the column has no limit).</summary>
    public const int MaxBodyLength = 1024 * 1024;

    /// <summary>The outbox's template_name column, in characters.</summary>
    public const int MaxTemplateNameLength = 200;

    /// <summary>The outbox's locale column, in characters (BCP 47 tags are at most 35 in practice).</summary>
    public const int MaxLocaleLength = 35;

    /// <summary>Null when <paramref name="recipient"/> is one bare e-mail address; otherwise why not.</summary>
    public static string? Recipient(string? recipient)
    {
        if (string.IsNullOrWhiteSpace(recipient))
        {
            return "invalid recipient: empty";
        }

        if (Characters(recipient) > MaxRecipientLength)
        {
            return $"invalid recipient: longer than {MaxRecipientLength} characters";
        }

        if (recipient.AsSpan().IndexOfAny('\r', '\n') >= 0)
        {
            return "invalid recipient: contains CR or LF (header injection)";
        }

        // MailAddress also accepts "Name <a@b>" and comments; a recipient here is one bare address.
        bool bare = MailAddress.TryCreate(recipient, out var address)
            && address.Address == recipient
            && !recipient.Any(c => char.IsWhiteSpace(c) || char.IsControl(c) || c is '<' or '>' or '(' or ')' or ',' or ';');
        return bare ? null : $"invalid recipient: '{Truncate(recipient)}' is not a single e-mail address";
    }

    /// <summary>Null when <paramref name="subject"/> can be a prepared mail's subject (one line); otherwise why not.</summary>
    public static string? Subject(string? subject)
    {
        if (subject is null)
        {
            return "invalid subject: missing";
        }

        if (Characters(subject) > MaxSubjectLength)
        {
            return $"invalid subject: longer than {MaxSubjectLength} characters";
        }

        return subject.Any(char.IsControl) ? "invalid subject: contains CR, LF or another control character (header injection)" : null;
    }

    /// <summary>Null when <paramref name="body"/> can be a prepared mail's body; otherwise why not.</summary>
    public static string? Body(string? body) => body is null ? "invalid body: missing" : OverTheBodyLimit(body, "body");

    /// <summary>Null when <paramref name="html"/> (null: none) can be a prepared mail's HTML alternative; otherwise why not.</summary>
    public static string? HtmlBody(string? html) => html is null ? null : OverTheBodyLimit(html, "html body");

    private static string? OverTheBodyLimit(string text, string what) =>
        text.Length > MaxBodyLength && Characters(text) is var length && length > MaxBodyLength
            ? $"invalid {what}: {length} characters, the limit is {MaxBodyLength}"
            : null;

    /// <summary>Null when <paramref name="name"/> can name a template; otherwise why not.</summary>
    public static string? TemplateName(string? name) =>
        string.IsNullOrWhiteSpace(name) || Characters(name) > MaxTemplateNameLength
            ? $"invalid template name: empty or longer than {MaxTemplateNameLength} characters"
            : null;

    /// <summary>Null when <paramref name="locale"/> (null: the default) fits the locale column; otherwise why not.</summary>
    public static string? Locale(string? locale) =>
        locale is { } given && (given.Length == 0 || Characters(given) > MaxLocaleLength)
            ? $"invalid locale: empty or longer than {MaxLocaleLength} characters"
            : null;

    /// <summary>
    /// Code points, as PostgreSQL's varchar(n) and SQL Server's check constraints count them. A surrogate
    /// pair is one; a lone surrogate (invalid UTF-16) counts as one as well.
    /// </summary>
    public static int Characters(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        int pairs = 0;
        for (int i = 0; i + 1 < text.Length; i++)
        {
            if (char.IsSurrogatePair(text[i], text[i + 1]))
            {
                pairs++;
                i++;
            }
        }

        return text.Length - pairs;
    }

    internal static string Truncate(string value) => value.Length <= 64 ? value : value[..64] + "...";
}
