using System.Net;
using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// A self-signed server certificate for 127.0.0.1 and localhost, made in the test, and the client side that trusts
/// exactly it (pinned by thumbprint, not by switching validation off).
/// </summary>
internal sealed class TestCertificate : IDisposable
{
    private TestCertificate(X509Certificate2 certificate) => Certificate = certificate;

    public X509Certificate2 Certificate { get; }

    public static TestCertificate Create()
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest("CN=notifications-test-receiver", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        names.AddDnsName("localhost");
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, true));
        request.CertificateExtensions.Add(
            new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false)); // serverAuth
        var now = DateTimeOffset.UtcNow;
        using var ephemeral = request.CreateSelfSigned(now.AddMinutes(-5), now.AddDays(1));

        // Through PKCS#12 so that the private key is one SslStream can use on every platform.
        byte[] pfx = ephemeral.Export(X509ContentType.Pkcs12);
        return new TestCertificate(X509CertificateLoader.LoadPkcs12(pfx, null));
    }

    /// <summary>The certificate without its key, as PEM: what a client in another process is told to trust.</summary>
    public string ExportPem() => Certificate.ExportCertificatePem();

    /// <summary>The client side of a certificate another process made (<see cref="ExportPem"/>): it can trust, not serve.</summary>
    public static TestCertificate FromPem(string pem) => new(X509Certificate2.CreateFromPem(pem));

    /// <summary>TLS options that accept this certificate and nothing else.</summary>
    public SslClientAuthenticationOptions ClientOptions() => new()
    {
        RemoteCertificateValidationCallback = (_, presented, _, _) =>
            presented is not null && presented.GetCertHashString() == Certificate.GetCertHashString(),
    };

    /// <summary>
    /// A real client: SocketsHttpHandler trusting this certificate; <paramref name="version"/> with an exact policy for
    /// its own helpers (GetAsync, PostAsync...). A request built by hand carries its own Version and VersionPolicy.
    /// </summary>
    public HttpClient CreateClient(Version version, TimeSpan timeout)
    {
        var handler = new SocketsHttpHandler { SslOptions = ClientOptions(), PooledConnectionLifetime = TimeSpan.FromMinutes(1) };
        return new HttpClient(handler)
        {
            DefaultRequestVersion = version,
            DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
            Timeout = timeout,
        };
    }

    public void Dispose() => Certificate.Dispose();
}
