using System.Buffers;
using System.Text;
using Notifications.Consumer.Sending;
using Notifications.Consumer.Sending.Smtp;

namespace Notifications.UnitTests.Sending;

public sealed class DotStuffingTests
{
    [Theory]
    [InlineData("a\r\n.b\r\n", "a\r\n..b\r\n")]
    [InlineData(".first\r\n", "..first\r\n")]
    [InlineData("a\r\n.\r\nb\r\n", "a\r\n..\r\nb\r\n")] // a lone "." would end the data early
    [InlineData("a\r\n..\r\n", "a\r\n...\r\n")]
    [InlineData(".\r\n.\r\n", "..\r\n..\r\n")]
    public void Write_LineStartingWithDot_DotDoubled(string message, string expected)
    {
        Assert.True(DotStuffing.IsNeeded(Encoding.ASCII.GetBytes(message)));
        Assert.Equal(expected, Stuff(message));
    }

    [Theory]
    [InlineData("a.b\r\nend.\r\n")]
    [InlineData("no dots\r\n")]
    [InlineData(" .indented\r\n")]
    public void Write_NoLineStartsWithDot_Unchanged(string message)
    {
        Assert.False(DotStuffing.IsNeeded(Encoding.ASCII.GetBytes(message)));
        Assert.Equal(message, Stuff(message));
    }

    [Fact]
    public void Write_RenderedMessageWithDotLines_NoLineCanEndTheData()
    {
        var message = new EmailMessage(1, "u@example.test", "s", ".\n..x\nok.\n.", false, DateTimeOffset.UnixEpoch);
        var rendered = new ArrayBufferWriter<byte>();
        MimeMessageWriter.Write(message, "f@example.test", "example.test", allow8Bit: true, rendered);

        string stuffed = Stuff(Encoding.ASCII.GetString(rendered.WrittenSpan));

        Assert.EndsWith("\r\n\r\n..\r\n...x\r\nok.\r\n..\r\n", stuffed, StringComparison.Ordinal);
        Assert.DoesNotContain("\r\n.\r\n", stuffed, StringComparison.Ordinal);
    }

    private static string Stuff(string message)
    {
        var output = new ArrayBufferWriter<byte>();
        DotStuffing.Write(Encoding.ASCII.GetBytes(message), output);
        return Encoding.ASCII.GetString(output.WrittenSpan);
    }
}
