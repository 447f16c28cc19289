using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// Server certificates of endpoints checked against the system's roots and, when <see cref="WebhookOptions.TrustedCertificatesFile"/>
/// names a PEM file, against its certificates as extra roots too (a private CA of internal endpoints). The host name must
/// match either way; nothing else is relaxed.
/// </summary>
internal static class ExtraTrust
{
    public static SslClientAuthenticationOptions For(WebhookOptions options)
    {
        if (string.IsNullOrEmpty(options.TrustedCertificatesFile))
        {
            return new SslClientAuthenticationOptions();
        }

        var roots = new X509Certificate2Collection();
        roots.ImportFromPemFile(options.TrustedCertificatesFile);
        return new SslClientAuthenticationOptions
        {
            RemoteCertificateValidationCallback = (_, certificate, _, errors) => errors == SslPolicyErrors.None
                || (errors == SslPolicyErrors.RemoteCertificateChainErrors && certificate is X509Certificate2 presented && ChainsTo(presented, roots)),
        };
    }

    private static bool ChainsTo(X509Certificate2 certificate, X509Certificate2Collection roots)
    {
        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.AddRange(roots);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        return chain.Build(certificate);
    }
}
