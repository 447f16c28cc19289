using System.ComponentModel.DataAnnotations;
using Notifications.Consumer.Channels.Email;

namespace Notifications.UnitTests.Sending;

public sealed class SmtpOptionsTests
{
    [Fact]
    public void Validate_Defaults_Valid()
    {
        Assert.Empty(Validate(new SmtpOptions()));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(65536)]
    public void Validate_PortOutOfRange_Invalid(int port)
    {
        Assert.Contains(nameof(SmtpOptions.Port), Validate(new SmtpOptions { Port = port }).SelectMany(r => r.MemberNames));
    }

    [Fact]
    public void Validate_UsernameWithoutPassword_Invalid()
    {
        Assert.Contains(nameof(SmtpOptions.Password), Validate(new SmtpOptions { Username = "u" }).SelectMany(r => r.MemberNames));
    }

    [Theory]
    [InlineData(false, false)]
    [InlineData(true, true)]
    public void Validate_CredentialsWithSecurityNone_ValidOnlyWhenAllowed(bool allow, bool valid)
    {
        var options = new SmtpOptions { Username = "u", Password = "p", Security = SmtpSecurity.None, AllowAuthWithoutTls = allow };

        Assert.Equal(valid, Validate(options).Count == 0);
    }

    [Theory]
    [InlineData("a@b\r\nBcc: c@d")]
    [InlineData("a b@c")]
    [InlineData("")]
    [InlineData("Acme Billing")]
    [InlineData("Acme <billing@acme.example>, Other <other@acme.example>")]
    [InlineData("Billing: billing@acme.example, other@acme.example;")]
    [InlineData("Acme <billing@acme.example>\r\nBcc: spy@example.test")]
    [InlineData("Acme <billing>")]
    public void Validate_MalformedFrom_Invalid(string from)
    {
        Assert.Contains(nameof(SmtpOptions.From), Validate(new SmtpOptions { From = from }).SelectMany(r => r.MemberNames));
    }

    [Theory]
    [InlineData("Acme Billing <billing@acme.example>")]
    [InlineData("\"Acme, Inc.\" <billing@acme.example>")]
    [InlineData("Zoë Café <billing@acme.example>")]
    public void Validate_FromWithDisplayName_Valid(string from)
    {
        Assert.Empty(Validate(new SmtpOptions { From = from }));
    }

    [Fact]
    public void Validate_TwoAddressesInFrom_ErrorNamesSmtpFromAndOneMailbox()
    {
        var error = Assert.Single(Validate(new SmtpOptions { From = "a@acme.example, b@acme.example" }));

        Assert.Contains("Smtp:From", error.ErrorMessage, StringComparison.Ordinal);
        Assert.Contains("one mailbox", error.ErrorMessage, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_NegativeIdleCheckAfter_Invalid()
    {
        var options = new SmtpOptions { IdleCheckAfter = TimeSpan.FromSeconds(-1) };

        Assert.Contains(nameof(SmtpOptions.IdleCheckAfter), Validate(options).SelectMany(r => r.MemberNames));
    }

    [Fact]
    public void Defaults_CertificateChecksOn()
    {
        Assert.True(new SmtpOptions().CheckCertificateRevocation);
    }

    private static List<ValidationResult> Validate(SmtpOptions options)
    {
        var results = new List<ValidationResult>();
        Validator.TryValidateObject(options, new ValidationContext(options), results, validateAllProperties: true);
        return results;
    }
}
