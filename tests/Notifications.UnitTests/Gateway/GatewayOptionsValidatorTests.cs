using Notifications.Gateway;

namespace Notifications.UnitTests.Gateway;

/// <summary>The gateway refuses to start on options its public port cannot listen with (TLS is optional, both files or none).</summary>
public sealed class GatewayOptionsValidatorTests
{
    private readonly GatewayOptionsValidator _validator = new();

    [Fact]
    public void Validate_NoCertificate_PlainWebSocketIsValid()
    {
        var result = _validator.Validate(null, new GatewayOptions { TokenKey = Key });

        Assert.True(result.Succeeded, result.FailureMessage);
    }

    [Theory]
    [InlineData("k")]
    [InlineData("c2hvcnQ=")]   // 5 bytes
    public void Validate_TokenKeyNotBase64Or_Under32Bytes_FailsNamingIt(string tokenKey)
    {
        var result = _validator.Validate(null, new GatewayOptions { TokenKey = tokenKey });

        Assert.Contains("Gateway:TokenKey must be at least 32 random bytes in base64", result.FailureMessage, StringComparison.Ordinal);
    }

    private static readonly string Key = Convert.ToBase64String(new byte[32]);

    [Fact]
    public void Validate_CertificateWithoutKey_FailsNamingBothSettings()
    {
        var result = _validator.Validate(null, new GatewayOptions { Certificate = "/run/secrets/tls_gateway.crt" });

        Assert.True(result.Failed);
        Assert.Contains("Gateway:Certificate and Gateway:CertificateKey go together", result.FailureMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_FilesThatAreNoPem_FailsWithThePathAndHostName()
    {
        string file = Path.GetTempFileName();
        try
        {
            var result = _validator.Validate(null, new GatewayOptions { Address = "gateway", Certificate = file, CertificateKey = file });

            Assert.True(result.Failed);
            Assert.Contains($"Gateway:Certificate '{file}' with Gateway:CertificateKey '{file}' cannot be loaded", result.FailureMessage, StringComparison.Ordinal);
            Assert.Contains("Gateway:Address must be an IP address", result.FailureMessage, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(file);
        }
    }
}
