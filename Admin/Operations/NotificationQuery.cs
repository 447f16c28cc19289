using System.Globalization;
using System.Text;
using Notifications.Shared.Data.Operations;

namespace Notifications.Admin.Operations;

/// <summary>
/// The rules a search text passes before any query: not empty, no longer than the longest value stored (a recipient's 320
/// characters), valid text with no NUL (PostgreSQL takes none in text). Anything else is a search like any other: it is a
/// parameter, compared for equality on an index, so SQL metacharacters and control characters just match nothing.
/// </summary>
internal static class NotificationQuery
{
    public const int MaxLength = 320;
    public const int MaxPage = 100;

    /// <summary>Why <paramref name="text"/> cannot match anything (null: it may).</summary>
    public static string? Refusal(string text)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            return "give a notification id, an idempotency key, a recipient address or a subscriber id to search for";
        }

        if (text.Length > MaxLength)
        {
            return string.Create(CultureInfo.InvariantCulture, $"not found: the text is {text.Length} characters, longer than any id, key, address or subscriber id kept ({MaxLength})");
        }

        return text.Contains('\0', StringComparison.Ordinal) || !IsValidText(text)
            ? "not found: the text holds a NUL or a broken character, which no id, key, address or subscriber id kept holds"
            : null;
    }

    /// <summary>The kinds a text is searched as when the operator does not say: an id only if it reads as one.</summary>
    public static IReadOnlyList<NotificationSearchKind> KindsFor(string text, NotificationSearchKind? kind) =>
        kind is { } k ? [k]
        : AsId(text) is not null ? [NotificationSearchKind.Id, NotificationSearchKind.IdempotencyKey, NotificationSearchKind.Subscriber]
        : text.Contains('@', StringComparison.Ordinal) ? [NotificationSearchKind.Recipient, NotificationSearchKind.IdempotencyKey, NotificationSearchKind.Subscriber]
        : [NotificationSearchKind.IdempotencyKey, NotificationSearchKind.Subscriber, NotificationSearchKind.Recipient];

    public static long? AsId(string text) =>
        long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out long id) && id > 0 ? id : null;

    private static bool IsValidText(string text)
    {
        try
        {
            _ = new UTF8Encoding(false, throwOnInvalidBytes: true).GetByteCount(text);
            return true;
        }
        catch (EncoderFallbackException)
        {
            return false;
        }
    }
}
