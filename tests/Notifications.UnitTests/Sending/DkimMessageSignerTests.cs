using System.ComponentModel.DataAnnotations;
using MimeKit;
using Notifications.Consumer.Channels.Email;
using Notifications.IntegrationTests.Sending;

namespace Notifications.UnitTests.Sending;

/// <summary>DKIM signing of the built message, and the options that refuse a key which cannot sign.</summary>
public sealed class DkimMessageSignerTests
{
    private static readonly FormatOptions Wire = new() { NewLineFormat = NewLineFormat.Dos, EnsureNewLine = true };

    [Theory]
    [InlineData(false, "Plain ASCII body.\n")]
    [InlineData(true, "Grüße aus Köln 😀\nand a second line\n")]
    public void Sign_BuiltMessage_VerifiesAfterAWireRoundTrip(bool pkcs1, string body)
    {
        using var key = new DkimTestKey(pkcs1: pkcs1);
        var signer = DkimMessageSigner.Create(Options(key.PrivateKeyFile))!;
        var email = new EmailMessage(42, "user@example.test", "Grüße", body, false, DateTimeOffset.UnixEpoch)
        {
            Cc = "cc@example.test", Headers = """{"X-Campaign":"spring"}""",
        };
        var fields = HeaderFields.Resolve(email, serverOffersSmtpUtf8: false);
        using var message = new MimeMessageBuilder("notifications@example.test", "notifications.local")
            .Build(email, new MailboxAddress(string.Empty, "user@example.test"), fields);

        signer.Sign(FormatOptions.Default, message);
        using var received = RoundTrip(message);

        string signature = received.Headers[HeaderId.DkimSignature]!;
        Assert.Contains("c=relaxed/relaxed", signature, StringComparison.Ordinal);
        Assert.Contains("d=example.test", signature, StringComparison.Ordinal);
        Assert.Contains("s=mail2026", signature, StringComparison.Ordinal);
        Assert.True(key.Verifies(received));
    }

    [Fact]
    public void Sign_MessageChangedAfterSigning_DoesNotVerify()
    {
        using var key = new DkimTestKey();
        var email = new EmailMessage(1, "user@example.test", "Hello", "Body.\n", false, DateTimeOffset.UnixEpoch);
        using var message = new MimeMessageBuilder("notifications@example.test", "notifications.local")
            .Build(email, new MailboxAddress(string.Empty, "user@example.test"));
        DkimMessageSigner.Create(Options(key.PrivateKeyFile))!.Sign(FormatOptions.Default, message);

        message.Subject = "Tampered";

        Assert.False(key.Verifies(RoundTrip(message)));
    }

    [Fact]
    public void Validate_Off_NoErrorsAndNoSigner()
    {
        Assert.Empty(Errors(new DkimOptions()));
        Assert.Null(DkimMessageSigner.Create(new DkimOptions()));
    }

    [Fact]
    public void Validate_GoodKey_NoErrors()
    {
        using var key = new DkimTestKey();

        Assert.Empty(Errors(Options(key.PrivateKeyFile)));
    }

    [Fact]
    public void Validate_MissingKeyFile_NamesTheFileAndWhy()
    {
        string error = Assert.Single(Errors(Options("/nonexistent/dkim.pem")));

        Assert.Contains("Dkim:PrivateKeyFile '/nonexistent/dkim.pem' cannot be used", error, StringComparison.Ordinal);
        Assert.Contains("DirectoryNotFoundException", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_NotAKey_Refused()
    {
        string file = Path.GetTempFileName();
        File.WriteAllText(file, "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n");
        try
        {
            Assert.Contains("cannot be used", Assert.Single(Errors(Options(file))), StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Fact]
    public void Validate_ShortKey_RefusedNamingTheSize()
    {
        using var key = new DkimTestKey(bits: 512);

        Assert.Contains("512 bits", Assert.Single(Errors(Options(key.PrivateKeyFile))), StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_PartialOrFromless_Refused()
    {
        using var key = new DkimTestKey();

        Assert.Contains("Dkim:Selector and Dkim:PrivateKeyFile are required", Assert.Single(Errors(new DkimOptions { Domain = "example.test" })), StringComparison.Ordinal);
        Assert.Contains("Dkim:Domain is required", Assert.Single(Errors(new DkimOptions { Selector = "s" })), StringComparison.Ordinal);
        var fromless = Options(key.PrivateKeyFile);
        fromless.Headers = "To,Subject";
        Assert.Contains("must include From", Assert.Single(Errors(fromless)), StringComparison.Ordinal);
    }

    private static DkimOptions Options(string file) => new() { Domain = "example.test", Selector = "mail2026", PrivateKeyFile = file };

    private static List<string> Errors(DkimOptions options)
    {
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(options, new ValidationContext(options), results, validateAllProperties: true);
        return [.. results.Select(r => r.ErrorMessage!)];
    }

    // Written as MailKit writes it (CRLF) and parsed back, as a receiving server would.
    private static MimeMessage RoundTrip(MimeMessage message)
    {
        var stream = new MemoryStream();
        message.WriteTo(Wire, stream);
        stream.Position = 0;
        return MimeMessage.Load(stream);
    }
}
