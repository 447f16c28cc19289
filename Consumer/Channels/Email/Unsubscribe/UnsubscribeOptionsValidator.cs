using Microsoft.Extensions.Options;

namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>Checks what data annotations cannot: an https template with its placeholder, and a key (inline or in a readable file) when tokens are signed.</summary>
internal sealed class UnsubscribeOptionsValidator : IValidateOptions<UnsubscribeOptions>
{
    /// <summary>The shortest key: HMAC-SHA256's output size, so the key is not the weak part.</summary>
    public const int MinKeyLength = 32;

    public ValidateOptionsResult Validate(string? name, UnsubscribeOptions options)
    {
        var failures = new List<string>();
        if (options.UrlTemplate is { Length: > 0 } template)
        {
            if (!template.StartsWith("https://", StringComparison.OrdinalIgnoreCase))
            {
                failures.Add($"Unsubscribe:UrlTemplate must be an https URL (RFC 8058), not '{template}'");
            }

            if (!template.Contains(UnsubscribeOptions.TokenPlaceholder, StringComparison.Ordinal))
            {
                failures.Add($"Unsubscribe:UrlTemplate must contain {UnsubscribeOptions.TokenPlaceholder}, where the signed token goes");
            }

            if (KeyProblem(options) is { } problem)
            {
                failures.Add(problem);
            }
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    /// <summary>The key's bytes (UTF-8), read from <see cref="UnsubscribeOptions.SigningKey"/> or the file.</summary>
    public static byte[] ReadKey(UnsubscribeOptions options)
    {
        string key = options.SigningKey is { Length: > 0 } inline ? inline : File.ReadAllText(options.SigningKeyFile!).Trim();
        return System.Text.Encoding.UTF8.GetBytes(key);
    }

    private static string? KeyProblem(UnsubscribeOptions options)
    {
        bool inline = options.SigningKey is { Length: > 0 }, file = options.SigningKeyFile is { Length: > 0 };
        if (inline == file)
        {
            return "Unsubscribe:UrlTemplate needs a signing key: set Unsubscribe:SigningKey or Unsubscribe:SigningKeyFile (one of them)";
        }

        if (file && !File.Exists(options.SigningKeyFile))
        {
            return $"Unsubscribe:SigningKeyFile '{options.SigningKeyFile}' does not exist";
        }

        return ReadKey(options).Length < MinKeyLength
            ? $"the unsubscribe signing key must be at least {MinKeyLength} characters"
            : null;
    }
}
