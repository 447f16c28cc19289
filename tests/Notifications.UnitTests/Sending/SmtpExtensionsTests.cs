using Notifications.Consumer.Sending.Smtp;

namespace Notifications.UnitTests.Sending;

public sealed class SmtpExtensionsTests
{
    [Fact]
    public void Parse_SmtpSinkEhloText_FindsPipelining8BitMimeAndAuth()
    {
        const string text = "smtp-sink\nPIPELINING\n8BITMIME\nAUTH PLAIN LOGIN\nXCLIENT NAME HELO\n"
            + "XFORWARD NAME ADDR PROTO HELO\nENHANCEDSTATUSCODES\nDSN\n";

        SmtpExtensions extensions = SmtpExtensions.Parse(text);

        Assert.Equal(new SmtpExtensions(true, true, false, false, true, true, null), extensions);
    }

    [Fact]
    public void Parse_PostfixStyleEhloText_FindsStartTlsSmtpUtf8AndSize()
    {
        const string text = "mx.example.test\nPIPELINING\nSIZE 10240000\nVRFY\nETRN\nSTARTTLS\n"
            + "ENHANCEDSTATUSCODES\n8BITMIME\nDSN\nSMTPUTF8\nCHUNKING";

        SmtpExtensions extensions = SmtpExtensions.Parse(text);

        Assert.Equal(new SmtpExtensions(true, true, true, true, false, false, 10_240_000), extensions);
    }

    [Theory]
    [InlineData("SIZE", null)]
    [InlineData("SIZE 0", null)]
    [InlineData("SIZE 52428800", 52_428_800L)]
    [InlineData("SIZE junk", null)]
    public void Parse_Size_LimitOrNone(string line, long? expected)
    {
        Assert.Equal(expected, SmtpExtensions.Parse("host\n" + line).MaxSize);
    }

    [Theory]
    [InlineData("AUTH=LOGIN", false, true)]
    [InlineData("AUTH LOGIN CRAM-MD5", false, true)]
    [InlineData("auth plain", true, false)]
    [InlineData("AUTH CRAM-MD5 XOAUTH2", false, false)]
    [InlineData("AUTHX PLAIN", false, false)]
    public void Parse_AuthLine_Mechanisms(string line, bool plain, bool login)
    {
        SmtpExtensions extensions = SmtpExtensions.Parse("host\n" + line);

        Assert.Equal((plain, login), (extensions.AuthPlain, extensions.AuthLogin));
    }

    [Fact]
    public void Parse_KeywordOnGreetingLine_NotAnExtension()
    {
        Assert.Equal(SmtpExtensions.None, SmtpExtensions.Parse("PIPELINING says hello"));
    }

    [Fact]
    public void Parse_LowercaseKeywords_Recognised()
    {
        SmtpExtensions extensions = SmtpExtensions.Parse("host\npipelining\nstarttls\n8bitmime\nsmtputf8");

        Assert.Equal(new SmtpExtensions(true, true, true, true, false, false, null), extensions);
    }
}
