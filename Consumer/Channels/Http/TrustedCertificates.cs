using System.ComponentModel.DataAnnotations;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Notifications.Consumer.Channels.Http;

/// <summary>
/// The TLS trust of the HTTP channels' clients (<c>Webhooks:TrustedCertificatesFile</c>, <c>Push:TrustedCertificatesFile</c>):
/// the system's roots and, when a PEM file is set, its certificates as extra roots (a private CA of internal endpoints, a
/// TLS-inspecting proxy in front of the providers, a test server's self-signed certificate). A server certificate is accepted
/// when it chains to either; its name must match and it must be meant for servers either way; nothing is accepted blindly.
/// </summary>
internal static class TrustedCertificates
{
    private static readonly Oid ServerAuthentication = new("1.3.6.1.5.5.7.3.1");

    /// <summary>The certificates in <paramref name="file"/> (PEM), or null and why not.</summary>
    public static X509Certificate2Collection? TryLoad(string file, out string? error)
    {
        try
        {
            var certificates = new X509Certificate2Collection();
            certificates.ImportFromPemFile(file);
            error = certificates.Count == 0 ? "it holds no PEM certificate" : null;
            return error is null ? certificates : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or CryptographicException)
        {
            error = ex.Message;
            return null;
        }
    }

    /// <summary>A start-up check of <paramref name="file"/> (null when unset or usable), named by its key.</summary>
    public static ValidationResult? Validate(string? file, string key, string member) =>
        string.IsNullOrEmpty(file) || TryLoad(file, out string? error) is not null
            ? null
            : new ValidationResult($"{key} '{file}' cannot be used: {error}", [member]);

    /// <summary>TLS options trusting the system's roots and, when <paramref name="file"/> is set, its certificates besides.</summary>
    public static SslClientAuthenticationOptions ClientOptions(string? file, string key)
    {
        if (string.IsNullOrEmpty(file))
        {
            return new SslClientAuthenticationOptions();
        }

        var roots = TryLoad(file, out string? error) ?? throw new InvalidOperationException($"{key} '{file}' cannot be used: {error}");
        return new SslClientAuthenticationOptions
        {
            // Only a chain that did not reach a system root gets a second look; a name mismatch is never forgiven.
            RemoteCertificateValidationCallback = (_, certificate, chain, errors) => errors == SslPolicyErrors.None
                || (errors == SslPolicyErrors.RemoteCertificateChainErrors && certificate is X509Certificate2 presented
                    && ChainsTo(presented, chain, roots)),
        };
    }

    private static bool ChainsTo(X509Certificate2 certificate, X509Chain? presented, X509Certificate2Collection roots)
    {
        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.AddRange(roots);
        // The intermediates the server sent, so a private CA's issuing certificate need not be in the file.
        if (presented is not null)
        {
            foreach (var element in presented.ChainElements)
            {
                chain.ChainPolicy.ExtraStore.Add(element.Certificate);
            }
        }

        chain.ChainPolicy.ApplicationPolicy.Add(ServerAuthentication);
        // A private CA or a test certificate publishes no revocation list.
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        return chain.Build(certificate);
    }
}
