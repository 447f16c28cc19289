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

        Assert.True(BrokerCertificateTrust.IsTrusted([ca], server, null, errors));
    }

    [Fact]
    public void IsTrusted_CertificateOfAnotherCa_False()
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        using var other = TestCertificates.Ca("someone else's CA");
        using var server = TestCertificates.Server(other, "rabbitmq-1");

        Assert.False(BrokerCertificateTrust.IsTrusted([ca], server, null, SslPolicyErrors.RemoteCertificateChainErrors));
    }

    [Fact]
    public void IsTrusted_SelfSignedServerCertificate_False()
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        using var selfSigned = TestCertificates.Ca("rabbitmq-1");

        Assert.False(BrokerCertificateTrust.IsTrusted([ca], selfSigned, null, SslPolicyErrors.RemoteCertificateChainErrors));
    }

    [Theory]
    [InlineData(SslPolicyErrors.RemoteCertificateNameMismatch)]
    [InlineData(SslPolicyErrors.RemoteCertificateNameMismatch | SslPolicyErrors.RemoteCertificateChainErrors)]
    public void IsTrusted_RightCaWrongName_False(SslPolicyErrors errors)
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        using var server = TestCertificates.Server(ca, "rabbitmq-2");

        Assert.False(BrokerCertificateTrust.IsTrusted([ca], server, null, errors));
    }

    [Fact]
    public void IsTrusted_NoCertificate_False()
    {
        using var ca = TestCertificates.Ca("notifications test CA");

        Assert.False(BrokerCertificateTrust.IsTrusted([ca], null, null, SslPolicyErrors.RemoteCertificateNotAvailable));
    }

    [Fact]
    public void LoadCa_PemFile_TheCertificate()
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        string path = TestCertificates.WritePem(ca);
        try
        {
            var loaded = BrokerCertificateTrust.LoadCa(path);

            Assert.Equal(ca.Thumbprint, Assert.Single(loaded).Thumbprint);
        }
        finally
        {
            File.Delete(path);
        }
    }

    // A CA rotation: the file holds the old and the new CA, and a server of either is trusted.
    [Fact]
    public void IsTrusted_FileWithTwoCas_ServersOfEitherTrusted()
    {
        using var oldCa = TestCertificates.Ca("old CA");
        using var newCa = TestCertificates.Ca("new CA");
        string path = Path.GetTempFileName();
        File.WriteAllText(path, oldCa.ExportCertificatePem() + "\n" + newCa.ExportCertificatePem());
        try
        {
            var both = BrokerCertificateTrust.LoadCa(path);
            using var onOld = TestCertificates.Server(oldCa, "rabbitmq-1");
            using var onNew = TestCertificates.Server(newCa, "rabbitmq-1");

            Assert.Equal(2, both.Count);
            Assert.True(BrokerCertificateTrust.IsTrusted(both, onOld, null, SslPolicyErrors.RemoteCertificateChainErrors));
            Assert.True(BrokerCertificateTrust.IsTrusted(both, onNew, null, SslPolicyErrors.RemoteCertificateChainErrors));
        }
        finally
        {
            File.Delete(path);
        }
    }
}
