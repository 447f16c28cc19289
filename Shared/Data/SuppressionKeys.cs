namespace Notifications.Shared.Data;

/// <summary>
/// How an address or a domain becomes a <c>suppression</c> key: trimmed and lower-cased (invariant), a domain with
/// a leading <c>@</c>. Local parts are compared without case: providers treat them so, and a key that missed
/// "User@" for "user@" would send to an address that asked not to get mail.
/// </summary>
public static class SuppressionKeys
{
    /// <summary>The longest key: an address's 320 characters (the outbox's recipient limit).</summary>
    public const int MaxLength = 320;

    /// <summary>The key of an address (<c>user@example.com</c>) or a domain (<c>@example.com</c>); null and a reason if it is neither.</summary>
    public static string? TryNormalize(string? value, out string? error)
    {
        string key = (value ?? "").Trim().ToLowerInvariant();
        int at = key.LastIndexOf('@');
        error = key switch
        {
            "" => "empty: give an address (user@example.com) or a domain (@example.com)",
            { Length: > MaxLength } => $"longer than {MaxLength} characters",
            _ when at < 0 => $"'{key}' is neither an address (user@example.com) nor a domain (@example.com)",
            _ when at == key.Length - 1 => $"'{key}' has no domain after '@'",
            _ when key.AsSpan().ContainsAny(" \t\r\n<>,;") => $"'{key}' is not a bare address: no spaces, brackets, commas or semicolons",
            _ => null,
        };
        return error is null ? key : null;
    }

    /// <summary>The key of a recipient's address (no validation: the consumer validated it already).</summary>
    public static string ForAddress(string recipient) => recipient.Trim().ToLowerInvariant();

    /// <summary>The domain key (<c>@example.com</c>) of an address key, or null if it has no '@'.</summary>
    public static string? DomainOf(string addressKey)
    {
        int at = addressKey.LastIndexOf('@');
        return at < 0 ? null : addressKey[at..];
    }
}
