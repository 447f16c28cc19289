using System.Security.Cryptography.X509Certificates;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Gateway;

/// <summary>Checks what data annotations cannot: an IP address to bind, and a certificate with its key that load.</summary>
internal sealed class GatewayOptionsValidator : IValidateOptions<GatewayOptions>
{
    public ValidateOptionsResult Validate(string? name, GatewayOptions options)
    {
        var failures = PublicServerListen.Problems(GatewayOptions.SectionName, options.Address, options.Certificate, options.CertificateKey);
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    /// <summary>The certificate and key as Kestrel gets them.</summary>
    public static X509Certificate2 Load(GatewayOptions options) => PublicServerListen.Load(options.Certificate!, options.CertificateKey!);
}
