using Microsoft.Extensions.Options;
using Notifications.Shared.Unsubscribe;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>Checks what data annotations cannot: an https template with its placeholder, and a key to make tokens with when there is one.</summary>
internal sealed class UnsubscribeOptionsValidator(IOptions<UnsubscribeKeyOptions> keys) : IValidateOptions<UnsubscribeOptions>
{
    public ValidateOptionsResult Validate(string? name, UnsubscribeOptions options)
    {
        var failures = new List<string>();
        if (options.SigningKey is { Length: > 0 } || options.SigningKeyFile is { Length: > 0 })
        {
            failures.Add("Unsubscribe:SigningKey and Unsubscribe:SigningKeyFile are no longer used by the consumer: tokens are encrypted with "
                + "Unsubscribe:Keys:<name> (32 random bytes in base64); give the old key to the unsubscribe process as "
                + "Unsubscribe:LegacySigningKey for the deprecation window and remove it here (docs/suppression.md)");
        }

        if (options.UrlTemplate is { Length: > 0 } template)
        {
            if (!template.StartsWith("https://", StringComparison.OrdinalIgnoreCase))
            {
                failures.Add($"Unsubscribe:UrlTemplate must be an https URL (RFC 8058), not '{template}'");
            }

            if (!template.Contains(UnsubscribeOptions.TokenPlaceholder, StringComparison.Ordinal))
            {
                failures.Add($"Unsubscribe:UrlTemplate must contain {UnsubscribeOptions.TokenPlaceholder}, where the token goes");
            }

            if (keys.Value.Keys.Count == 0)
            {
                failures.Add("Unsubscribe:UrlTemplate needs a key to make tokens with: set Unsubscribe:Keys:<name> (openssl rand -base64 32)");
            }
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
