using System.Text;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Contract;

/// <summary>Reply-To, Cc, Bcc and custom headers as the validator (and so the dead-letter reason) sees them.</summary>
public sealed class MessageHeadersTests
{
    private static readonly NotificationMessage Valid = new(1, "a@example.com", "s", "b", false, DateTimeOffset.UnixEpoch, null);

    [Theory]
    [InlineData("a@example.com", 1)]
    [InlineData("a@example.com, b@example.org", 2)]
    [InlineData("\"Doe, Jo\" <jo@example.com>, Support <help@example.com>", 2)]
    [InlineData("kunde@bücher.example", 1)]
    [InlineData("  ", 0)]
    public void TryParseAddressList_Mailboxes_TrueWithEach(string list, int count)
    {
        Assert.True(MessageHeaders.TryParseAddressList(list, "cc", out var mailboxes, out string? error), error);

        Assert.Equal(count, mailboxes.Count);
    }

    [Theory]
    [InlineData("not an address")]
    [InlineData("a@example.com, nobody")]
    [InlineData("a@")]
    [InlineData("Team: a@example.com, b@example.com;")]
    [InlineData("Doe, Jo <jo@example.com>")]
    [InlineData("a@example.com\r\nBcc: spy@example.com")]
    [InlineData("<<a@example.com>")]
    public void TryParseAddressList_NotMailboxes_FalseNamingTheField(string list)
    {
        Assert.False(MessageHeaders.TryParseAddressList(list, "cc", out _, out string? error));

        Assert.StartsWith("invalid cc:", error, StringComparison.Ordinal);
    }

    [Fact]
    public void TryParseAddressList_OverTheLimit_False()
    {
        string list = string.Join(", ", Enumerable.Range(0, MessageHeaders.MaxAddresses + 1).Select(i => $"u{i}@example.com"));

        Assert.False(MessageHeaders.TryParseAddressList(list, "bcc", out _, out string? error));
        Assert.Contains("the limit is 50", error, StringComparison.Ordinal);
    }

    [Fact]
    public void TryParseCustomHeaders_Object_NamesAndValuesInOrder()
    {
        Assert.True(MessageHeaders.TryParseCustomHeaders("""{"X-Campaign":"spring","X-Tag":"Grüße","Precedence":"bulk"}""", out var headers, out _));

        Assert.Equal(["X-Campaign", "X-Tag", "Precedence"], headers.Select(h => h.Key));
        Assert.Equal("Grüße", headers[1].Value);
    }

    [Theory]
    [InlineData("""{"Subject":"x"}""", "'Subject' is set by the system")]
    [InlineData("""{"bcc":"spy@example.com"}""", "'bcc' is set by the system")]
    [InlineData("""{"DKIM-Signature":"x"}""", "set by the system")]
    [InlineData("""{"List-Unsubscribe":"<mailto:u@example.com>"}""", "set by the system")]
    [InlineData("""{"Content-Disposition":"attachment"}""", "set by the system")]
    [InlineData("""{"X-Notification-Id":"7"}""", "set by the system")]
    [InlineData("""{"X-Tag":"a\r\nBcc: spy@example.com"}""", "contains CR or LF")]
    [InlineData("""{"X-Tag":"a\nb"}""", "contains CR or LF")]
    [InlineData("""{"X-Tag":"a\u0000b"}""", "control character")]
    [InlineData("""{"X Tag":"a"}""", "not a header field name")]
    [InlineData("""{"X-Täg":"a"}""", "not a header field name")]
    [InlineData("""{"":"a"}""", "not a header field name")]
    [InlineData("""{"X-Tag":1}""", "a JSON string is required")]
    [InlineData("""{"X-Tag":"a","x-tag":"b"}""", "appears twice")]
    [InlineData("""["X-Tag"]""", "not a JSON object")]
    [InlineData("""{"X-Tag":""", "not JSON")]
    public void TryParseCustomHeaders_Refused_FalseWithTheReason(string json, string reason)
    {
        Assert.False(MessageHeaders.TryParseCustomHeaders(json, out _, out string? error));

        Assert.StartsWith("invalid headers:", error, StringComparison.Ordinal);
        Assert.Contains(reason, error, StringComparison.Ordinal);
    }

    [Fact]
    public void TryParseCustomHeaders_ValueOver998Characters_False()
    {
        Assert.False(MessageHeaders.TryParseCustomHeaders($$"""{"X-Long":"{{new string('v', 999)}}"}""", out _, out string? error));

        Assert.Contains("longer than 998", error, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_BadFieldInMessage_ReasonNamesTheField()
    {
        Assert.Null(NotificationValidator.Validate(Valid with { ReplyTo = "r@example.com", Cc = "c@example.com", Headers = "{}" }));
        Assert.StartsWith("invalid reply-to:", NotificationValidator.Validate(Valid with { ReplyTo = "nope" }), StringComparison.Ordinal);
        Assert.StartsWith("invalid bcc:", NotificationValidator.Validate(Valid with { Bcc = "nope" }), StringComparison.Ordinal);
        Assert.StartsWith("invalid headers:", NotificationValidator.Validate(Valid with { Headers = """{"From":"x@example.com"}""" }), StringComparison.Ordinal);
    }

    [Fact]
    public void Serialize_OptionalFields_RoundTripAndAbsentWhenNull()
    {
        var rich = Valid with { ReplyTo = "r@example.com", Cc = "c@example.com", Bcc = "b@example.com", Headers = """{"X-A":"1"}""" };

        Assert.True(MessageSerializer.TryDeserialize(MessageSerializer.Serialize(rich), out var back, out _));
        Assert.Equal(rich, back);
        Assert.Contains("\"replyTo\":\"r@example.com\",\"cc\":\"c@example.com\",\"bcc\":\"b@example.com\",\"headers\":",
            Encoding.UTF8.GetString(MessageSerializer.Serialize(rich)), StringComparison.Ordinal);
        Assert.DoesNotContain("cc", Encoding.UTF8.GetString(MessageSerializer.Serialize(Valid)), StringComparison.Ordinal);
    }
}
