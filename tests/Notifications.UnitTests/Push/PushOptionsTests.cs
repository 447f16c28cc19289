using System.ComponentModel.DataAnnotations;
using System.Security.Cryptography;
using System.Text.Json;
using Notifications.Consumer.Channels.Push;

namespace Notifications.UnitTests.Push;

/// <summary>Push options checked at start: a provider's bad key file stops the consumer with the key named and why.</summary>
public sealed class PushOptionsTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("push-options-").FullName;

    [Fact]
    public void Validate_NothingConfigured_Valid()
    {
        Assert.Empty(Validate(new PushOptions()));
    }

    [Fact]
    public void Validate_GoodFilesBothProviders_Valid()
    {
        using var ec = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var options = new PushOptions();
        options.Fcm.CredentialsFile = Write("sa.json", ServiceAccount());
        options.Apns.PrivateKeyFile = Write("key.p8", ec.ExportPkcs8PrivateKeyPem());
        (options.Apns.KeyId, options.Apns.TeamId, options.Apns.Topic) = ("KEY1234567", "TEAM123456", "com.example.app");

        Assert.Empty(Validate(options));
    }

    [Fact]
    public void Validate_ApnsKeyFileNotAKey_ErrorNamesTheKeyAndFile()
    {
        var options = new PushOptions();
        options.Apns.PrivateKeyFile = Write("key.p8", "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n");
        (options.Apns.KeyId, options.Apns.TeamId, options.Apns.Topic) = ("KEY1234567", "TEAM123456", "com.example.app");

        string error = Assert.Single(Validate(options));

        Assert.StartsWith($"Push:Apns:PrivateKeyFile '{options.Apns.PrivateKeyFile}' cannot be used: ", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_ApnsWithoutTeamOrTopic_ErrorNamesWhatIsMissing()
    {
        using var ec = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var options = new PushOptions();
        options.Apns.PrivateKeyFile = Write("key.p8", ec.ExportPkcs8PrivateKeyPem());

        Assert.Contains("Push:Apns:KeyId, Push:Apns:TeamId and Push:Apns:Topic are required with Push:Apns:PrivateKeyFile.", Validate(options));
    }

    [Theory]
    [InlineData("{}", "it has no client_email")]
    [InlineData("not json", "cannot be used: ")]
    [InlineData("""{"client_email": "a@b", "private_key": "nope", "project_id": "p"}""", "its private_key is not an RSA key in PEM")]
    [InlineData("""{"client_email": "a@b", "private_key": "KEY"}""", "it has no project_id, and Push:Fcm:ProjectId is not set")]
    public void Validate_FcmCredentialsFileBad_ErrorSaysWhy(string json, string why)
    {
        var options = new PushOptions();
        options.Fcm.CredentialsFile = Write("sa.json", json.Replace("KEY", JsonEncodedText.Encode(RsaPem()).ToString(), StringComparison.Ordinal));

        string error = Assert.Single(Validate(options));

        Assert.StartsWith($"Push:Fcm:CredentialsFile '{options.Fcm.CredentialsFile}' cannot be used: ", error, StringComparison.Ordinal);
        Assert.Contains(why, error, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_TrustedCertificatesFileWithoutCertificate_ErrorNamesTheKey()
    {
        var options = new PushOptions { TrustedCertificatesFile = Write("ca.pem", "nothing here") };

        Assert.StartsWith("Push:TrustedCertificatesFile", Assert.Single(Validate(options)), StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_DeprecatedTrustedCertificateFileWithoutCertificate_ErrorNamesTheOldKey()
    {
        var options = new PushOptions { TrustedCertificateFile = Write("ca.pem", "nothing here") };

        Assert.StartsWith("Push:TrustedCertificateFile", Assert.Single(Validate(options)), StringComparison.Ordinal);
    }

    [Fact]
    public void TrustFile_BothKeys_TheNewOneWins()
    {
        var options = new PushOptions { TrustedCertificatesFile = "new.pem", TrustedCertificateFile = "old.pem" };

        Assert.Equal(("new.pem", "Push:TrustedCertificatesFile"), (options.TrustFile, options.TrustKey));
        Assert.Equal(("old.pem", "Push:TrustedCertificateFile"), (new PushOptions { TrustedCertificateFile = "old.pem" }.TrustFile, new PushOptions { TrustedCertificateFile = "old.pem" }.TrustKey));
    }

    public void Dispose() => Directory.Delete(directory, recursive: true);

    private static List<string> Validate(PushOptions options)
    {
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(options, new ValidationContext(options), results, validateAllProperties: true);
        return [.. results.Select(r => r.ErrorMessage!)];
    }

    private static string RsaPem()
    {
        using var rsa = RSA.Create(2048);
        return rsa.ExportPkcs8PrivateKeyPem();
    }

    private static string ServiceAccount() => JsonSerializer.Serialize(new Dictionary<string, string>
    {
        ["type"] = "service_account", ["project_id"] = "p", ["private_key_id"] = "k", ["private_key"] = RsaPem(), ["client_email"] = "a@p.iam.gserviceaccount.com",
    });

    private string Write(string name, string content)
    {
        string path = Path.Combine(directory, name);
        File.WriteAllText(path, content);
        return path;
    }
}
