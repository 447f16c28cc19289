using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// The TLS trust of the push clients: the system's roots, or exactly the certificates of <see cref="PushOptions.TrustedCertificateFile"/>
/// (a private CA, or a test server's self-signed certificate). The server's name is checked either way; nothing is accepted blindly.
/// </summary>
internal static class PushCertificateTrust
{
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

    /// <summary>TLS options trusting the system's roots, or only the certificates in <paramref name="file"/>.</summary>
    public static SslClientAuthenticationOptions ClientOptions(string? file)
    {
        if (string.IsNullOrEmpty(file))
        {
            return new SslClientAuthenticationOptions();
        }

        var certificates = TryLoad(file, out string? error)
            ?? throw new InvalidOperationException($"Push:TrustedCertificateFile '{file}' cannot be used: {error}");
        var policy = new X509ChainPolicy
        {
            TrustMode = X509ChainTrustMode.CustomRootTrust,
            // A private CA or a test certificate publishes no revocation list.
            RevocationMode = X509RevocationMode.NoCheck,
        };
        policy.CustomTrustStore.AddRange(certificates);
        return new SslClientAuthenticationOptions { CertificateChainPolicy = policy };
    }
}
