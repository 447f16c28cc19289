using Notifications.Client;

namespace Notifications.UnitTests.Client;

/// <summary>What the client refuses at enqueue about Reply-To, Cc, Bcc and custom headers, and the column it writes.</summary>
public sealed class MessageHeaderValuesTests
{
    private static readonly NewNotification Plain = new("a@example.com", "Hi", "body");

    [Fact]
    public void Of_NoHeaders_Null() => Assert.Null(MessageHeaderValues.Of(Plain));

    [Fact]
    public void Of_Headers_JsonObjectInOrder()
    {
        var notification = Plain with { Headers = new Dictionary<string, string> { ["X-Campaign"] = "spring \"sale\"", ["X-Tag"] = "Grüße" } };

        Assert.Equal("""{"X-Campaign":"spring \u0022sale\u0022","X-Tag":"Gr\u00FC\u00DFe"}""", MessageHeaderValues.Of(notification));
    }

    [Theory]
    [InlineData("From", "x@example.com", "set by the system")]
    [InlineData("dkim-signature", "x", "set by the system")]
    [InlineData("Content-Type", "text/html", "set by the system")]
    [InlineData("X-Tag", "a\r\nBcc: spy@example.com", "CR or LF")]
    [InlineData("X Tag", "a", "not a header field name")]
    [InlineData("X-Tag:", "a", "not a header field name")]
    public void Of_RefusedHeader_ArgumentExceptionWithReason(string name, string value, string reason)
    {
        var notification = Plain with { Headers = new Dictionary<string, string> { [name] = value } };

        var e = Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(notification));

        Assert.Contains(reason, e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_SameNameInTwoCases_Refused()
    {
        var notification = Plain with { Headers = new Dictionary<string, string> { ["X-Tag"] = "a", ["x-tag"] = "b" } };

        Assert.Contains("appears twice", Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(notification)).Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_LineBreakInAnAddressList_Refused()
    {
        var e = Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(Plain with { Cc = "a@example.com\nBcc: spy@example.com" }));

        Assert.Contains("Cc contains CR or LF", e.Message, StringComparison.Ordinal);
    }
}
