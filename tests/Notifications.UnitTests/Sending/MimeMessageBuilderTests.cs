using System.Text;
using MimeKit;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;

namespace Notifications.UnitTests.Sending;

public sealed class MimeMessageBuilderTests
{
    private static readonly DateTimeOffset CreatedAt = new(2026, 1, 2, 3, 4, 5, 678, TimeSpan.FromHours(2));
    private static readonly FormatOptions Wire = new() { NewLineFormat = NewLineFormat.Dos, EnsureNewLine = true };
    private readonly MimeMessageBuilder builder = new("notifications@example.test", "notifications.local");

    [Fact]
    public void Build_Headers_WhatOpsAndTestsRelyOn()
    {
        string raw = Write(Build(Email()), EncodingConstraint.EightBit);
        string headers = raw[..(raw.IndexOf("\r\n\r\n", StringComparison.Ordinal) + 2)];

        Assert.Contains("\r\nX-Notification-Id: 42\r\n", headers, StringComparison.Ordinal);
        Assert.Contains($"Message-Id: <42.{CreatedAt.ToUnixTimeMilliseconds()}@notifications.local>", headers, StringComparison.OrdinalIgnoreCase);
        Assert.StartsWith("Date: Fri, 02 Jan 2026 01:04:05 +0000\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nFrom: notifications@example.test\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nTo: user@example.test\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nSubject: Hello\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nContent-Type: text/plain; charset=utf-8\r\n", headers, StringComparison.Ordinal);
        Assert.Contains("\r\nMIME-Version: 1.0\r\n", headers, StringComparison.Ordinal);
    }

    [Fact]
    public void Build_SameNotificationTwice_SameBytes()
    {
        Assert.Equal(Write(Build(Email()), EncodingConstraint.EightBit), Write(Build(Email()), EncodingConstraint.EightBit));
    }

    [Fact]
    public void Build_Html_TextHtmlUtf8()
    {
        MimeMessage message = Build(Email() with { Body = "<p>Grüße</p>", IsHtml = true });

        var part = Assert.IsAssignableFrom<TextPart>(message.Body);
        Assert.Equal("text/html", part.ContentType.MimeType);
        Assert.Equal("utf-8", part.ContentType.Charset);
    }

    [Theory]
    [InlineData("a\r\nb\rc\nd", "a\nb\nc\nd\n")]
    [InlineData("a\r\r\nb", "a\n\nb\n")]
    [InlineData("no break", "no break\n")]
    [InlineData("ends\r\n", "ends\n")]
    public void NormalizeLineBreaks_EveryBreakOneLf_EndsWithOne(string body, string expected)
    {
        Assert.Equal(expected, MimeMessageBuilder.NormalizeLineBreaks(body));
    }

    [Fact]
    public void Build_SubjectWithLineBreak_PermanentHeaderInjection()
    {
        var failure = Assert.Throws<SmtpSendException>(() => Build(Email() with { Subject = "a\r\nBcc: x@example.test" }));

        Assert.Equal(SendFailureKind.Permanent, failure.Kind);
    }

    [Fact]
    public void Build_998EmojiSubject_FoldedIntoShortLinesAndReadsBackIdentical()
    {
        // The schema's limit in characters (code points): 998 emoji are 1,996 UTF-16 units and 3,992 UTF-8 bytes.
        string subject = string.Concat(Enumerable.Repeat("😀", 998));
        string raw = Write(Build(Email() with { Subject = subject }), EncodingConstraint.SevenBit);

        Assert.All(raw.Split("\r\n"), line => Assert.True(Encoding.UTF8.GetByteCount(line) <= 998, line));
        Assert.True(Ascii.IsValid(raw));
        Assert.Equal(subject, MimeMessage.Load(new MemoryStream(Encoding.ASCII.GetBytes(raw))).Subject);
    }

    [Theory]
    [InlineData(EncodingConstraint.EightBit)]
    [InlineData(EncodingConstraint.SevenBit)]
    public void Build_NonAsciiAndLongLines_RoundTripThroughMimeKit(EncodingConstraint constraint)
    {
        string body = "Привет, Γειά σου, 你好, مرحبا 😀\n.dot line\n" + new string('x', 5000) + "\nend\n";
        string raw = Write(Build(Email() with { Body = body }), constraint);

        Assert.All(raw.Split("\r\n"), line => Assert.True(Encoding.UTF8.GetByteCount(line) <= 998));
        MimeMessage read = MimeMessage.Load(new MemoryStream(Encoding.UTF8.GetBytes(raw)));
        Assert.Equal(body, read.TextBody?.ReplaceLineEndings("\n"));
    }

    private MimeMessage Build(EmailMessage email) => builder.Build(email, new MailboxAddress(string.Empty, email.To));

    private static EmailMessage Email() => new(42, "user@example.test", "Hello", "Body.\n", false, CreatedAt);

    // What MailKit does before it writes: choose the transfer encoding for the server's constraint.
    private static string Write(MimeMessage message, EncodingConstraint constraint)
    {
        message.Prepare(constraint, 998);
        using var output = new MemoryStream();
        message.WriteTo(Wire, output);
        return Encoding.UTF8.GetString(output.ToArray());
    }
}
