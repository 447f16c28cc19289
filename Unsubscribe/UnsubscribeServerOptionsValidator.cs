using System.Security.Cryptography.X509Certificates;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Unsubscribe;

/// <summary>Checks what data annotations cannot: an IP address to bind, a certificate with its key that load, an old key that reads.</summary>
internal sealed class UnsubscribeServerOptionsValidator : IValidateOptions<UnsubscribeServerOptions>
{
    /// <summary>The shortest old key, as the consumer required it.</summary>
    public const int MinLegacyKeyLength = 32;

    public ValidateOptionsResult Validate(string? name, UnsubscribeServerOptions options)
    {
        var failures = PublicServerListen.Problems(UnsubscribeServerOptions.SectionName, options.Address, options.Certificate, options.CertificateKey);
        if (LegacyKeyProblem(options) is { } legacy)
        {
            failures.Add(legacy);
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    /// <summary>The old HMAC key's bytes (UTF-8, as the consumer used them), or null when none is configured.</summary>
    public static byte[]? ReadLegacyKey(UnsubscribeServerOptions options)
    {
        string? key = options.LegacySigningKey is { Length: > 0 } inline ? inline
            : options.LegacySigningKeyFile is { Length: > 0 } file ? File.ReadAllText(file).Trim() : null;
        return key is null ? null : System.Text.Encoding.UTF8.GetBytes(key);
    }

    /// <summary>The certificate and key as Kestrel gets them.</summary>
    public static X509Certificate2 Load(UnsubscribeServerOptions options) => PublicServerListen.Load(options.Certificate!, options.CertificateKey!);

    private static string? LegacyKeyProblem(UnsubscribeServerOptions options)
    {
        bool inline = options.LegacySigningKey is { Length: > 0 }, file = options.LegacySigningKeyFile is { Length: > 0 };
        if (inline && file)
        {
            return "set one of Unsubscribe:LegacySigningKey and Unsubscribe:LegacySigningKeyFile, not both";
        }

        if (file && !File.Exists(options.LegacySigningKeyFile))
        {
            return $"Unsubscribe:LegacySigningKeyFile '{options.LegacySigningKeyFile}' does not exist";
        }

        return (inline || file) && ReadLegacyKey(options)!.Length < MinLegacyKeyLength
            ? $"Unsubscribe:LegacySigningKey must be the consumer's old signing key (at least {MinLegacyKeyLength} characters)"
            : null;
    }
}
