using System.Security.Cryptography.X509Certificates;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Gateway;

/// <summary>
/// Checks what data annotations cannot: an IP address to bind, a certificate with its key that load, and a token key of at least
/// 32 bytes in base64.
/// </summary>
internal sealed class GatewayOptionsValidator : IValidateOptions<GatewayOptions>
{
    public ValidateOptionsResult Validate(string? name, GatewayOptions options)
    {
        var failures = PublicServerListen.Problems(GatewayOptions.SectionName, options.Address, options.Certificate, options.CertificateKey);
        if (!IsKey(options.TokenKey))
        {
            failures.Add("Gateway:TokenKey must be at least 32 random bytes in base64 (the key the app signs its clients' tokens with)");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static bool IsKey(string value)
    {
        // A base64 text of n characters holds at most 3n/4 bytes: the buffer fits any key, however long.
        var bytes = new byte[(value.Length * 3 / 4) + 3];
        return Convert.TryFromBase64String(value, bytes, out int length) && length >= 32;
    }

    /// <summary>The certificate and key as Kestrel gets them.</summary>
    public static X509Certificate2 Load(GatewayOptions options) => PublicServerListen.Load(options.Certificate!, options.CertificateKey!);
}
