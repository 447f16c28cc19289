using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace Notifications.LiveSwarm;

/// <summary>A server certificate checked as a client that trusts one CA (the stack's, scripts/tls-certs) and nothing else.</summary>
internal static class CaTrust
{
    /// <summary>Whether <paramref name="certificate"/> names the host asked for and chains to <paramref name="ca"/>.</summary>
    public static bool IssuedBy(X509Certificate2 ca, X509Certificate? certificate, SslPolicyErrors errors)
    {
        if (certificate is null || (errors & ~SslPolicyErrors.RemoteCertificateChainErrors) != SslPolicyErrors.None)
        {
            return false;
        }

        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(ca);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        using var leaf = new X509Certificate2(certificate);
        return chain.Build(leaf);
    }
}
