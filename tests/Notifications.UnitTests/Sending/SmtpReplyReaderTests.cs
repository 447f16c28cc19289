using System.Text;
using Notifications.Consumer.Sending;
using Notifications.Consumer.Sending.Smtp;

namespace Notifications.UnitTests.Sending;

public sealed class SmtpReplyReaderTests
{
    private const string SmtpSinkEhlo =
        "250-smtp-sink\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-AUTH PLAIN LOGIN\r\n250-ENHANCEDSTATUSCODES\r\n250 \r\n";

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(4096)]
    public async Task ReadAsync_MultiLineContinuation_OneReplyWithAllLines(int chunk)
    {
        SmtpReplyReader reader = Reader(SmtpSinkEhlo + "220 next\r\n", chunk);

        SmtpReply reply = await reader.ReadAsync(keepText: true, CancellationToken.None);

        Assert.Equal(250, reply.Code);
        Assert.Equal("smtp-sink\nPIPELINING\n8BITMIME\nAUTH PLAIN LOGIN\nENHANCEDSTATUSCODES\n", reply.Text);
        Assert.Equal(220, (await reader.ReadAsync(keepText: false, CancellationToken.None)).Code);
    }

    [Fact]
    public async Task ReadAsync_PipelinedRepliesInOneRead_ReturnedOneByOne()
    {
        SmtpReplyReader reader = Reader("250 2.1.0 Ok\r\n550 5.1.1 <x@y>: unknown\r\n554 5.5.1 no valid recipients\r\n", 4096);

        SmtpReply mail = await reader.ReadAsync(keepText: false, CancellationToken.None);
        SmtpReply rcpt = await reader.ReadAsync(keepText: false, CancellationToken.None);
        SmtpReply data = await reader.ReadAsync(keepText: false, CancellationToken.None);

        Assert.Equal((250, ""), (mail.Code, mail.Text)); // positive replies keep no text unless asked
        Assert.Equal((550, "5.1.1 <x@y>: unknown"), (rcpt.Code, rcpt.Text));
        Assert.Equal(SmtpFailureKind.Permanent, rcpt.FailureKind);
        Assert.Equal(554, data.Code);
        Assert.False(reader.HasBufferedData);
    }

    [Theory]
    [InlineData("450 4.3.0 Error: command failed", "4.3.0", nameof(SmtpFailureKind.Transient))]
    [InlineData("550 5.1.1", "5.1.1", nameof(SmtpFailureKind.Permanent))]
    [InlineData("421 4.4.2 closing\r\n", "4.4.2", nameof(SmtpFailureKind.Transient))]
    [InlineData("450 5.1.1 class does not match", null, nameof(SmtpFailureKind.Transient))]
    [InlineData("554 no enhanced code", null, nameof(SmtpFailureKind.Permanent))]
    [InlineData("451 4.7.1000 detail too long", null, nameof(SmtpFailureKind.Transient))]
    public async Task ReadAsync_NegativeReply_EnhancedCodeAndKind(string line, string? enhanced, string kind)
    {
        SmtpReply reply = await Reader(line.TrimEnd() + "\r\n", 4096).ReadAsync(keepText: false, CancellationToken.None);

        Assert.Equal(enhanced, reply.EnhancedStatusCode);
        Assert.Equal(Enum.Parse<SmtpFailureKind>(kind), reply.FailureKind);
    }

    [Theory]
    [InlineData("250\r\n")]
    [InlineData("250 \r\n")]
    [InlineData("250 ok\n")]
    public async Task ReadAsync_LastLineWithoutTextOrCr_EndsReply(string text)
    {
        SmtpReply reply = await Reader(text, 4096).ReadAsync(keepText: true, CancellationToken.None);

        Assert.Equal(250, reply.Code);
    }

    [Theory]
    [InlineData("250-a\r\n251 b\r\n")]
    [InlineData("hello\r\n")]
    [InlineData("25\r\n")]
    [InlineData("250_x\r\n")]
    [InlineData("650 out of range\r\n")]
    public async Task ReadAsync_MalformedReply_ThrowsInvalidData(string text)
    {
        await Assert.ThrowsAsync<InvalidDataException>(
            async () => await Reader(text, 4096).ReadAsync(keepText: false, CancellationToken.None));
    }

    [Fact]
    public async Task ReadAsync_StreamEndsMidReply_ThrowsIOException()
    {
        await Assert.ThrowsAsync<IOException>(
            async () => await Reader("250-first\r\n250-sec", 4).ReadAsync(keepText: false, CancellationToken.None));
    }

    [Fact]
    public async Task ReadAsync_LineLongerThanBuffer_ThrowsInvalidData()
    {
        var reader = new SmtpReplyReader(new MemoryStream(Encoding.ASCII.GetBytes("250 " + new string('x', 100) + "\r\n")), 64);

        await Assert.ThrowsAsync<InvalidDataException>(async () => await reader.ReadAsync(keepText: false, CancellationToken.None));
    }

    [Fact]
    public async Task ReadAsync_RepliesSpanningBufferRefills_AllRead()
    {
        string text = string.Concat(Enumerable.Range(0, 200).Select(i => $"250-line {i}\r\n")) + "250 end\r\n";
        var reader = new SmtpReplyReader(new TricklingStream(Encoding.ASCII.GetBytes(text), 7), 64);

        SmtpReply reply = await reader.ReadAsync(keepText: true, CancellationToken.None);

        Assert.Equal(201, reply.Text.Split('\n').Length);
        Assert.EndsWith("line 199\nend", reply.Text, StringComparison.Ordinal);
    }

    private static SmtpReplyReader Reader(string text, int chunk) =>
        new(new TricklingStream(Encoding.ASCII.GetBytes(text), chunk));
}
