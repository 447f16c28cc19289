using System.Globalization;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;

namespace Notifications.UnitTests.Sending;

public sealed class EnvelopeAddressTests
{
    [Fact]
    public void IdnMapping_InThisBuildsGlobalizationMode_Punycode()
    {
        // .NET's IDNA has a managed implementation for globalization-invariant mode and uses ICU otherwise; both
        // give this (checked in invariant mode while the repository built that way; it now builds with ICU for SqlClient).
        Assert.Equal("xn--bcher-kva.example", new IdnMapping().GetAscii("bücher.example"));
        Assert.Equal("xn--r8jz45g.xn--zckzah", new IdnMapping().GetAscii("例え.テスト"));
    }

    [Theory]
    [InlineData("kunde@bücher.example", "kunde@xn--bcher-kva.example")]
    [InlineData("user@例え.テスト", "user@xn--r8jz45g.xn--zckzah")]
    [InlineData("user+tag@example.test", "user+tag@example.test")]
    public void Resolve_IdnDomainWithoutSmtpUtf8_Punycode(string address, string expected)
    {
        var mailbox = EnvelopeAddress.Resolve(address, "To", serverOffersSmtpUtf8: false, out bool needsSmtpUtf8);

        Assert.Equal(expected, mailbox.GetAddress(idnEncode: true)); // what MailKit puts in RCPT TO without SMTPUTF8
        Assert.False(needsSmtpUtf8);
    }

    [Fact]
    public void Resolve_NonAsciiLocalPartWithoutSmtpUtf8_PermanentWithReason()
    {
        SmtpSendException failure = Assert.Throws<SmtpSendException>(
            () => EnvelopeAddress.Resolve("jürgen@example.test", "To", serverOffersSmtpUtf8: false, out _));

        Assert.Equal(SendFailureKind.Permanent, failure.Kind);
        Assert.Contains("SMTPUTF8", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Resolve_NonAsciiLocalPartWithSmtpUtf8_KeptAndFlagged()
    {
        var mailbox = EnvelopeAddress.Resolve("jürgen@bücher.example", "To", serverOffersSmtpUtf8: true, out bool needsSmtpUtf8);

        Assert.True(needsSmtpUtf8);
        Assert.Equal("jürgen@bücher.example", mailbox.GetAddress(idnEncode: false));
    }

    [Theory]
    [InlineData("")]
    [InlineData("no-at-sign")]
    [InlineData("a@b.test\r\nBcc: c@d.test")]
    [InlineData("a b@c.test")]
    [InlineData("<a@b.test>")]
    [InlineData("a@")]
    [InlineData("a@exa mple.test")]
    public void Resolve_Malformed_Permanent(string address)
    {
        SmtpSendException failure = Assert.Throws<SmtpSendException>(
            () => EnvelopeAddress.Resolve(address, "To", serverOffersSmtpUtf8: true, out _));

        Assert.Equal(SendFailureKind.Permanent, failure.Kind);
    }

    [Fact]
    public void Resolve_AddressAtTheOutboxLimit_NotRefusedByTheClient()
    {
        // 320 characters pass the validator and the schema; the server, not the client, may refuse a long path.
        string address = new string('a', 64) + "@" + string.Join('.', Enumerable.Repeat(new string('d', 62), 4)) + ".com";

        Assert.Equal(320, address.Length);
        Assert.Equal(address, EnvelopeAddress.Resolve(address, "To", false, out _).Address);
    }

    [Fact]
    public void Resolve_InvalidIdnLabel_Permanent()
    {
        string address = "a@" + new string('ü', 70) + ".example"; // a label over 63 octets in punycode

        Assert.Equal(SendFailureKind.Permanent,
            Assert.Throws<SmtpSendException>(() => EnvelopeAddress.Resolve(address, "To", false, out _)).Kind);
    }
}
