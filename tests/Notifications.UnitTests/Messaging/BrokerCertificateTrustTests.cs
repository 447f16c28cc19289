using System.Net.Security;
using Notifications.Shared.Messaging;

namespace Notifications.UnitTests.Messaging;

public sealed class BrokerCertificateTrustTests
{
    [Theory]
    [InlineData(SslPolicyErrors.None)]
    [InlineData(SslPolicyErrors.RemoteCertificateChainErrors)]  // what SslStream reports for a CA the system does not know
    public void IsTrusted_CertificateOfTheConfiguredCa_True(SslPolicyErrors errors)
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        using var server = TestCertificates.Server(ca, "rabbitmq-1");

        Assert.True(BrokerCertificateTrust.IsTrusted(ca, server, null, errors));
    }

    [Fact]
    public void IsTrusted_CertificateOfAnotherCa_False()
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        using var other = TestCertificates.Ca("someone else's CA");
        using var server = TestCertificates.Server(other, "rabbitmq-1");

        Assert.False(BrokerCertificateTrust.IsTrusted(ca, server, null, SslPolicyErrors.RemoteCertificateChainErrors));
    }

    [Fact]
    public void IsTrusted_SelfSignedServerCertificate_False()
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        using var selfSigned = TestCertificates.Ca("rabbitmq-1");

        Assert.False(BrokerCertificateTrust.IsTrusted(ca, selfSigned, null, SslPolicyErrors.RemoteCertificateChainErrors));
    }

    [Theory]
    [InlineData(SslPolicyErrors.RemoteCertificateNameMismatch)]
    [InlineData(SslPolicyErrors.RemoteCertificateNameMismatch | SslPolicyErrors.RemoteCertificateChainErrors)]
    public void IsTrusted_RightCaWrongName_False(SslPolicyErrors errors)
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        using var server = TestCertificates.Server(ca, "rabbitmq-2");

        Assert.False(BrokerCertificateTrust.IsTrusted(ca, server, null, errors));
    }

    [Fact]
    public void IsTrusted_NoCertificate_False()
    {
        using var ca = TestCertificates.Ca("notifications test CA");

        Assert.False(BrokerCertificateTrust.IsTrusted(ca, null, null, SslPolicyErrors.RemoteCertificateNotAvailable));
    }

    [Fact]
    public void LoadCa_PemFile_TheCertificate()
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        string path = TestCertificates.WritePem(ca);
        try
        {
            using var loaded = BrokerCertificateTrust.LoadCa(path);

            Assert.Equal(ca.Thumbprint, loaded.Thumbprint);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
