using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using RabbitMQ.Client;

namespace Notifications.Shared.Messaging;

/// <summary>
/// TLS to the broker (<c>amqps://</c>): the server's certificate must name the node connected to and chain to
/// <see cref="Hosting.RabbitMqOptions.CaCertificate"/> when that is set (a deployment's own CA, e.g. the one
/// <c>scripts/tls-certs</c> makes), or to the system's trusted roots when it is not.
/// </summary>
internal static class BrokerCertificateTrust
{
    /// <summary>The TLS settings for one node: its host name checked against the certificate, the CA trusted.</summary>
    public static SslOption For(string hostName, X509Certificate2Collection? ca)
    {
        var ssl = new SslOption(hostName, enabled: true);
        if (ca is not null)
        {
            ssl.CertificateValidationCallback = (_, certificate, chain, errors) => IsTrusted(ca, certificate, chain, errors);
        }

        return ssl;
    }

    /// <summary>
    /// Reads the CA certificates of a PEM file (all of them: during a CA rotation the file holds the old and the new
    /// CA) or one DER certificate; the error names the path and the key.
    /// </summary>
    public static X509Certificate2Collection LoadCa(string path)
    {
        try
        {
            var certificates = new X509Certificate2Collection();
            certificates.ImportFromPemFile(path);
            if (certificates.Count == 0)
            {
                certificates.Add(X509CertificateLoader.LoadCertificateFromFile(path));
            }

            return certificates;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or System.Security.Cryptography.CryptographicException)
        {
            throw new InvalidOperationException($"RabbitMq:CaCertificate '{path}' is not a readable X.509 certificate: {ex.Message}", ex);
        }
    }

    /// <summary>
    /// True when the server sent a certificate for the expected name (SslStream's own check) whose chain ends at
    /// <paramref name="ca"/> alone: the system's roots are not consulted, so a certificate of any other CA is refused.
    /// </summary>
    internal static bool IsTrusted(X509Certificate2Collection ca, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        if (certificate is null || (errors & (SslPolicyErrors.RemoteCertificateNotAvailable | SslPolicyErrors.RemoteCertificateNameMismatch)) != 0)
        {
            return false;
        }

        using var custom = new X509Chain();
        custom.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        custom.ChainPolicy.CustomTrustStore.AddRange(ca);
        custom.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;  // a throwaway CA publishes no revocation list
        if (chain is not null)
        {
            foreach (var element in chain.ChainElements)
            {
                custom.ChainPolicy.ExtraStore.Add(element.Certificate);
            }
        }

        var leaf = certificate as X509Certificate2;
        using var copy = leaf is null ? X509CertificateLoader.LoadCertificate(certificate.GetRawCertData()) : null;
        return custom.Build(leaf ?? copy!);
    }
}
