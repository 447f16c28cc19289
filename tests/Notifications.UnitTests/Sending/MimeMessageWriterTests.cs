using System.Buffers;
using System.Text;
using Notifications.Consumer.Sending;
using Notifications.Consumer.Sending.Mime;

namespace Notifications.UnitTests.Sending;

public sealed class MimeMessageWriterTests
{
    private const string From = "notifications@example.test";
    private static readonly DateTimeOffset CreatedAt = new(2026, 3, 4, 5, 6, 7, 89, TimeSpan.FromHours(2));

    [Theory]
    [InlineData("victim@example.test\r\nBcc: everyone@example.test")]
    [InlineData("victim@example.test\rBcc: everyone@example.test")]
    [InlineData("victim@example.test\nBcc: everyone@example.test")]
    public void Write_CrOrLfInTo_ThrowsPermanent(string to)
    {
        SmtpSendException failure = Assert.Throws<SmtpSendException>(() => Write(Message() with { To = to }));

        Assert.Equal(SmtpFailureKind.Permanent, failure.Kind);
        Assert.Contains("CR or LF", failure.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Hi\r\nBcc: everyone@example.test")]
    [InlineData("Hi\rBcc: everyone@example.test")]
    [InlineData("Hi\nBcc: everyone@example.test")]
    [InlineData("Hi\r\n\r\nInjected body")]
    public void Write_CrOrLfInSubject_ThrowsPermanent(string subject)
    {
        SmtpSendException failure = Assert.Throws<SmtpSendException>(() => Write(Message() with { Subject = subject }));

        Assert.Equal(SmtpFailureKind.Permanent, failure.Kind);
    }

    [Fact]
    public void Validate_CrLfInFrom_ThrowsPermanent()
    {
        SmtpSendException failure = Assert.Throws<SmtpSendException>(
            () => MimeMessageWriter.Validate(Message(), "a@example.test\r\nBcc: x@example.test"));

        Assert.Equal(SmtpFailureKind.Permanent, failure.Kind);
    }

    [Theory]
    [InlineData("")]
    [InlineData("   ")]
    [InlineData("a@example.test> NOTIFY=NEVER")]
    [InlineData("<a@example.test>")]
    public void Write_EmptyOrMalformedRecipient_ThrowsPermanent(string to)
    {
        SmtpSendException failure = Assert.Throws<SmtpSendException>(() => Write(Message() with { To = to }));

        Assert.Equal(SmtpFailureKind.Permanent, failure.Kind);
    }

    [Fact]
    public void Write_PlainMessage_WritesExpectedHeadersAndBody()
    {
        string text = Write(Message(), allow8Bit: true, out ContentTransferEncoding encoding);

        Assert.Equal(ContentTransferEncoding.SevenBit, encoding);
        Assert.Equal(
            "Date: Wed, 04 Mar 2026 03:06:07 +0000\r\n"
            + "From: notifications@example.test\r\n"
            + "To: user@example.test\r\n"
            + "Subject: Your order\r\n"
            + $"Message-ID: <12345.{CreatedAt.ToUnixTimeMilliseconds()}@notifications.local>\r\n"
            + "X-Notification-Id: 12345\r\n"
            + "MIME-Version: 1.0\r\n"
            + "Content-Type: text/plain; charset=utf-8\r\n"
            + "Content-Transfer-Encoding: 7bit\r\n"
            + "\r\n"
            + "Hello,\r\nyour order shipped.\r\n",
            text);
    }

    [Fact]
    public void Write_HtmlMessage_DeclaresTextHtml()
    {
        string text = Write(Message() with { IsHtml = true, Body = "<p>Hi</p>" });

        Assert.Contains("\r\nContent-Type: text/html; charset=utf-8\r\n", text, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(true, nameof(ContentTransferEncoding.EightBit), "8bit")]
    [InlineData(false, nameof(ContentTransferEncoding.QuotedPrintable), "quoted-printable")]
    public void Write_NonAsciiBody_8BitOnlyWhenServerOffers8BitMime(bool allow8Bit, string expected, string header)
    {
        string text = Write(Message() with { Body = "Grüße" }, allow8Bit, out ContentTransferEncoding encoding);

        Assert.Equal(Enum.Parse<ContentTransferEncoding>(expected), encoding);
        Assert.Contains($"\r\nContent-Transfer-Encoding: {header}\r\n", text, StringComparison.Ordinal);
        Assert.EndsWith(allow8Bit ? "\r\n\r\nGrüße\r\n" : "\r\n\r\nGr=C3=BC=C3=9Fe\r\n", text, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(998, 'a', nameof(ContentTransferEncoding.SevenBit))]
    [InlineData(999, 'a', nameof(ContentTransferEncoding.QuotedPrintable))]
    [InlineData(499, 'é', nameof(ContentTransferEncoding.EightBit))] // 998 bytes
    [InlineData(500, 'é', nameof(ContentTransferEncoding.QuotedPrintable))] // 1000 bytes in 500 characters
    public void Write_LineLengthInBytes_DecidesBetweenRawAndQuotedPrintable(int count, char c, string expected)
    {
        string text = Write(Message() with { Body = "short\n" + new string(c, count) + "\nshort" }, allow8Bit: true, out ContentTransferEncoding encoding);

        Assert.Equal(Enum.Parse<ContentTransferEncoding>(expected), encoding);
        Assert.All(text.Split("\r\n"), line => Assert.True(Encoding.UTF8.GetByteCount(line) <= 998));
    }

    [Fact]
    public void Write_NulInBody_UsesQuotedPrintable()
    {
        string text = Write(Message() with { Body = "a\0b" }, allow8Bit: true, out ContentTransferEncoding encoding);

        Assert.Equal(ContentTransferEncoding.QuotedPrintable, encoding);
        Assert.EndsWith("\r\n\r\na=00b\r\n", text, StringComparison.Ordinal);
    }

    [Fact]
    public void Write_BareCrAndLfInBody_NormalisedToCrlf()
    {
        string text = Write(Message() with { Body = "a\nb\rc\r\n\nd" });

        Assert.EndsWith("\r\n\r\na\r\nb\r\nc\r\n\r\nd\r\n", text, StringComparison.Ordinal);
        Assert.DoesNotContain('\r', text.Replace("\r\n", "", StringComparison.Ordinal));
        Assert.DoesNotContain('\n', text.Replace("\r\n", "", StringComparison.Ordinal));
    }

    private static EmailMessage Message() =>
        new(12345, "user@example.test", "Your order", "Hello,\nyour order shipped.", false, CreatedAt);

    private static string Write(EmailMessage message) => Write(message, allow8Bit: true, out _);

    private static string Write(EmailMessage message, bool allow8Bit, out ContentTransferEncoding encoding)
    {
        var buffer = new ArrayBufferWriter<byte>();
        encoding = MimeMessageWriter.Write(message, From, "notifications.local", allow8Bit, buffer);
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
