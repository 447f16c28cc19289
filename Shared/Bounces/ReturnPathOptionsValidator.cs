using System.Buffers;
using Microsoft.Extensions.Options;

namespace Notifications.Shared.Bounces;

/// <summary>
/// Checks section <c>Bounces</c> at start, naming the key at fault: each key id 1–8 lowercase letters or digits and used
/// once, each secret base64 of at least 32 bytes, a domain when there are keys and keys when there is a domain. Nothing
/// configured passes here; whoever needs return paths says so (the bounce receiver always).
/// </summary>
public sealed class ReturnPathOptionsValidator : IValidateOptions<ReturnPathOptions>
{
    /// <summary>The shortest secret: 256 bits, the HMAC-SHA256 block's worth of entropy.</summary>
    public const int MinSecretBytes = 32;

    /// <summary>The longest key id: keeps the longest local part within RFC 5321's 64 characters.</summary>
    public const int MaxKeyIdChars = 8;

    private const int MaxLocalPrefixChars = 16;
    private static readonly SearchValues<char> KeyIdChars = SearchValues.Create("abcdefghijklmnopqrstuvwxyz0123456789");
    private static readonly SearchValues<char> PrefixChars = SearchValues.Create("abcdefghijklmnopqrstuvwxyz0123456789-_");
    private static readonly SearchValues<char> DomainChars = SearchValues.Create("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.");

    /// <inheritdoc />
    public ValidateOptionsResult Validate(string? name, ReturnPathOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        var ids = new HashSet<string>(StringComparer.Ordinal);
        for (int i = 0; i < options.Keys.Count; i++)
        {
            var key = options.Keys[i];
            if (key.Id.Length is 0 or > MaxKeyIdChars || key.Id.AsSpan().ContainsAnyExcept(KeyIdChars))
            {
                failures.Add($"Bounces:Keys:{i}:Id '{key.Id}' must be 1 to {MaxKeyIdChars} lowercase letters or digits");
            }
            else if (!ids.Add(key.Id))
            {
                failures.Add($"Bounces:Keys:{i}:Id '{key.Id}' is used by an earlier key: each key needs its own id");
            }

            if (ReturnPath.TryDecodeSecret(key.Secret) is null)
            {
                failures.Add($"Bounces:Keys:{i}:Secret (key '{key.Id}') must be at least {MinSecretBytes} random bytes in base64 (openssl rand -base64 {MinSecretBytes})");
            }
        }

        if (options.LocalPrefix.Length is 0 or > MaxLocalPrefixChars || options.LocalPrefix.AsSpan().ContainsAnyExcept(PrefixChars))
        {
            failures.Add($"Bounces:LocalPrefix '{options.LocalPrefix}' must be 1 to {MaxLocalPrefixChars} lowercase letters, digits, '-' or '_'");
        }

        string domain = options.Domain.Trim();
        if (domain.Length > 0 && (domain.AsSpan().ContainsAnyExcept(DomainChars) || !domain.Contains('.', StringComparison.Ordinal) || domain.Length > 253))
        {
            failures.Add($"Bounces:Domain '{options.Domain}' must be a domain name (its MX points at the bounce receiver)");
        }
        else if (domain.Length > 0 && options.Keys.Count == 0)
        {
            failures.Add("Bounces:Domain is set but Bounces:Keys is empty: add Bounces:Keys:0:Id and Bounces:Keys:0:Secret");
        }
        else if (domain.Length == 0 && options.Keys.Count > 0)
        {
            failures.Add("Bounces:Keys is set but Bounces:Domain is empty: set the bounce domain");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
