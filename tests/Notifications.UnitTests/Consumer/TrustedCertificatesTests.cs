using System.Net.Security;
using Notifications.Consumer.Channels.Http;
using Notifications.UnitTests.Messaging;

namespace Notifications.UnitTests.Consumer;

/// <summary>
/// The HTTP channels' one trust setting (Webhooks:TrustedCertificatesFile, Push:TrustedCertificatesFile): roots besides the
/// system's. What the system trusts stays trusted, a chain to the file's root is trusted too, a name mismatch never is.
/// </summary>
public sealed class TrustedCertificatesTests : IDisposable
{
    private readonly System.Security.Cryptography.X509Certificates.X509Certificate2 _ca = TestCertificates.Ca("private-ca");
    private readonly string _file;

    public TrustedCertificatesTests() => _file = TestCertificates.WritePem(_ca);

    [Fact]
    public void ClientOptions_NoFile_TheSystemsValidationAlone() =>
        Assert.Null(TrustedCertificates.ClientOptions(null, "Webhooks:TrustedCertificatesFile").RemoteCertificateValidationCallback);

    [Fact]
    public void ClientOptions_File_WhatTheSystemTrustsStaysTrusted()
    {
        using var anyServer = TestCertificates.Server(TestCertificates.Ca("some-public-ca"), "hooks.example.com");

        Assert.True(Check(anyServer, SslPolicyErrors.None));
    }

    [Fact]
    public void ClientOptions_File_AChainToItsRootIsTrusted()
    {
        using var server = TestCertificates.Server(_ca, "hooks.internal");

        Assert.True(Check(server, SslPolicyErrors.RemoteCertificateChainErrors));
    }

    [Fact]
    public void ClientOptions_File_AnotherRootOrANameMismatchIsNot()
    {
        using var stranger = TestCertificates.Server(TestCertificates.Ca("another-ca"), "hooks.internal");
        using var server = TestCertificates.Server(_ca, "hooks.internal");

        Assert.False(Check(stranger, SslPolicyErrors.RemoteCertificateChainErrors));
        Assert.False(Check(server, SslPolicyErrors.RemoteCertificateChainErrors | SslPolicyErrors.RemoteCertificateNameMismatch));
    }

    [Fact]
    public void Validate_FileWithoutACertificate_ErrorNamesTheKey()
    {
        string empty = Path.GetTempFileName();
        try
        {
            var error = TrustedCertificates.Validate(empty, "Webhooks:TrustedCertificatesFile", "TrustedCertificatesFile");

            Assert.StartsWith($"Webhooks:TrustedCertificatesFile '{empty}' cannot be used: it holds no PEM certificate", error?.ErrorMessage, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(empty);
        }
    }

    public void Dispose()
    {
        _ca.Dispose();
        File.Delete(_file);
    }

    private bool Check(System.Security.Cryptography.X509Certificates.X509Certificate2 presented, SslPolicyErrors errors) =>
        TrustedCertificates.ClientOptions(_file, "Push:TrustedCertificatesFile").RemoteCertificateValidationCallback!(this, presented, null, errors);
}
