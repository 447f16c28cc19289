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
    public void Of_LineBreakInAnAddressList_RefusedNamingTheList()
    {
        var e = Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(Plain with { Cc = "a@example.com\nBcc: spy@example.com" }));

        Assert.Equal(nameof(NewNotification.Cc), e.ParamName);
        Assert.Contains("invalid cc: contains CR or LF", e.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(nameof(NewNotification.ReplyTo), "not an address", "invalid reply-to: 'not an address' is not a single mailbox")]
    [InlineData(nameof(NewNotification.Cc), "a@example.com; b@example.com", "invalid cc: 'a@example.com; b@example.com' is not a single mailbox")]
    [InlineData(nameof(NewNotification.Bcc), "ok@example.com, Archive <archive@>", "invalid bcc: 'Archive <archive@>' is not a single mailbox")]
    [InlineData(nameof(NewNotification.Bcc), "Doe, Jo <jo@example.com>", "invalid bcc: 'Doe' is not a single mailbox")]
    [InlineData(nameof(NewNotification.ReplyTo), "\"Doe, Jo <jo@example.com>", "invalid reply-to: '\"Doe, Jo <jo@example.com>' has a quote that is not closed")]
    public void Of_AddressListTheConsumerWouldDeadLetter_RefusedNamingTheProperty(string property, string list, string reason)
    {
        var notification = property switch
        {
            nameof(NewNotification.ReplyTo) => Plain with { ReplyTo = list },
            nameof(NewNotification.Cc) => Plain with { Cc = list },
            _ => Plain with { Bcc = list },
        };

        var e = Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(notification));

        Assert.Equal(property, e.ParamName);
        Assert.Contains(reason, e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_FiftyOneAddresses_RefusedAsTheConsumerWould()
    {
        string list = string.Join(",", Enumerable.Range(0, 51).Select(i => $"u{i}@example.com"));

        var e = Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(Plain with { Bcc = list }));

        Assert.Equal(nameof(NewNotification.Bcc), e.ParamName);
        Assert.Contains("51 addresses, the limit is 50", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_ListLongerThanItsColumnInCharacters_RefusedNamingTheProperty()
    {
        string list = string.Join(", ", Enumerable.Range(10, 20).Select(i => $"\"{new string('n', 40)}\" <u{i}@example.com>"));

        var e = Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(Plain with { ReplyTo = list }));

        Assert.Equal(nameof(NewNotification.ReplyTo), e.ParamName);
        Assert.Contains("the column holds 998", e.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_ListOverTheColumnInUtf16UnitsButNotInCharacters_Accepted()
    {
        string name = string.Concat(Enumerable.Repeat("\U0001F600", 30));
        string list = string.Join(", ", Enumerable.Range(10, 15).Select(i => $"\"{name}\" <u{i}@example.com>"));
        Assert.True(list.Length > 998);

        Assert.Null(MessageHeaderValues.Of(Plain with { ReplyTo = list }));
    }

    [Fact]
    public void Of_CustomHeaderRefused_ParamNameIsHeaders()
    {
        var notification = Plain with { Headers = new Dictionary<string, string> { ["From"] = "x@example.com" } };

        Assert.Equal(nameof(NewNotification.Headers), Assert.Throws<ArgumentException>(() => MessageHeaderValues.Of(notification)).ParamName);
    }
}
