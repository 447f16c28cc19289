using Microsoft.Extensions.Options;

namespace Notifications.Shared.Unsubscribe;

/// <summary>
/// Checks the key ring at start: each key 32 bytes of base64, the current key one of them, no two keys with one
/// fingerprint. An empty ring passes here; whoever needs keys says so (the consumer with a URL, the unsubscribe process always).
/// </summary>
public sealed class UnsubscribeKeyOptionsValidator : IValidateOptions<UnsubscribeKeyOptions>
{
    /// <inheritdoc />
    public ValidateOptionsResult Validate(string? name, UnsubscribeKeyOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var failures = new List<string>();
        var fingerprints = new Dictionary<uint, string>();
        foreach (var (keyName, value) in options.Keys)
        {
            if (UnsubscribeKeyRing.TryDecodeKey(value) is not { } key)
            {
                failures.Add($"Unsubscribe:Keys:{keyName} must be {UnsubscribeKeyOptions.KeyBytes} random bytes in base64 (openssl rand -base64 {UnsubscribeKeyOptions.KeyBytes})");
            }
            else if (!fingerprints.TryAdd(UnsubscribeKeyRing.Fingerprint(key), keyName))
            {
                failures.Add($"Unsubscribe:Keys:{keyName} is the same key as Unsubscribe:Keys:{fingerprints[UnsubscribeKeyRing.Fingerprint(key)]}");
            }
        }

        if (options.CurrentKey is { Length: > 0 } current && !options.Keys.ContainsKey(current))
        {
            failures.Add($"Unsubscribe:CurrentKey '{current}' is not one of Unsubscribe:Keys ({string.Join(", ", options.Keys.Keys)})");
        }
        else if (options.CurrentKey is not { Length: > 0 } && options.Keys.Count > 1)
        {
            failures.Add($"Unsubscribe:CurrentKey must name the key new tokens are made with: Unsubscribe:Keys holds {options.Keys.Count} ({string.Join(", ", options.Keys.Keys)})");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
