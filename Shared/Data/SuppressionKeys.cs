using Notifications.Shared.Contract;

namespace Notifications.Shared.Data;

/// <summary>
/// How a recipient becomes a <c>suppression</c> key, as its channel compares recipients (docs/suppression.md, "Keys"):
/// <list type="bullet">
/// <item>an email address or a domain (a leading <c>@</c>): trimmed and lower-cased (invariant), local part included. RFC 5321
/// lets a server treat the local part case-sensitively, but mailbox providers fold it, and a key that missed "User@" for
/// "user@" would send to an address that asked not to get mail;</item>
/// <item>a push recipient (<c>fcm:&lt;token&gt;</c>, <c>apns:&lt;token&gt;</c>): trimmed, otherwise exactly as given. FCM and
/// APNs tokens are case-sensitive: two that differ only in case are two devices.</item>
/// </list>
/// The column compares what it is given without folding (db/*/022_suppression_exact_keys.sql).
/// </summary>
public static class SuppressionKeys
{
    /// <summary>The longest key: an address's 320 characters (the outbox's recipient limit).</summary>
    public const int MaxLength = 320;

    /// <summary>
    /// The key of an address (<c>user@example.com</c>), a domain (<c>@example.com</c>) or a push recipient (<c>fcm:…</c>,
    /// <c>apns:…</c>); null and a reason if it is none of them.
    /// </summary>
    public static string? TryNormalize(string? value, out string? error)
    {
        string trimmed = (value ?? "").Trim();
        if (IsPushRecipient(trimmed))
        {
            error = trimmed.Length > MaxLength ? $"longer than {MaxLength} characters" : ChannelRules.PushRecipient(trimmed, out _, out _);
            return error is null ? trimmed : null;
        }

        string key = trimmed.ToLowerInvariant();
        int at = key.LastIndexOf('@');
        error = key switch
        {
            "" => "empty: give an address (user@example.com), a domain (@example.com) or a push recipient (fcm:<token>, apns:<token>)",
            { Length: > MaxLength } => $"longer than {MaxLength} characters",
            _ when at < 0 => $"'{key}' is neither an address (user@example.com), a domain (@example.com) nor a push recipient (fcm:<token>, apns:<token>)",
            _ when at == key.Length - 1 => $"'{key}' has no domain after '@'",
            _ when key.AsSpan().ContainsAny(" \t\r\n<>,;") => $"'{key}' is not a bare address: no spaces, brackets, commas or semicolons",
            _ => null,
        };
        return error is null ? key : null;
    }

    /// <summary>The key of a recipient (no validation: the consumer validated it already).</summary>
    public static string ForRecipient(string recipient)
    {
        string trimmed = recipient.Trim();
        return IsPushRecipient(trimmed) ? trimmed : trimmed.ToLowerInvariant();
    }

    /// <summary>The domain key (<c>@example.com</c>) of an address key, or null if it has none (no '@', or a push recipient).</summary>
    public static string? DomainOf(string key)
    {
        int at = key.LastIndexOf('@');
        return at < 0 || IsPushRecipient(key) ? null : key[at..];
    }

    /// <summary>Whether <paramref name="key"/> names a push token (its provider's prefix, as the push channel reads it).</summary>
    public static bool IsPushRecipient(string key) =>
        key.StartsWith(ChannelRules.Fcm + ":", StringComparison.Ordinal) || key.StartsWith(ChannelRules.Apns + ":", StringComparison.Ordinal);
}
