using System.Net.Http.Headers;
using System.Net.Sockets;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Channels.Http;
using Notifications.Consumer.Channels.Webhook;
using Notifications.Shared.Data;
using Polly.Timeout;

namespace Notifications.UnitTests.Webhooks;

/// <summary>What an endpoint's answer, or its absence, means for the message (docs/webhooks.md, classification).</summary>
public sealed class WebhookFailuresTests
{
    private const string Token = "T0001B0002XXXXXXXXXXXXXXXXXXXXXXXX";

    // A chat-style endpoint: the URL's path holds its token.
    private static readonly WebhookRequest Request = new(1, DateTimeOffset.UnixEpoch, new WebhookEndpoint
    {
        Name = "chat",
        Url = $"https://hooks.example.com/services/{Token}?key={Token}",
        Secret = "whsec_bmV3LXNlY3JldC1rZXktMzItYnl0ZXMtbG9uZyE=",
    }, new Uri($"https://hooks.example.com/services/{Token}?key={Token}"), "{}");

    [Theory]
    [InlineData(200)]
    [InlineData(202)]
    [InlineData(204)]
    public void KindOf_2xx_Delivered(int status) => Assert.Null(WebhookFailures.KindOf(status));

    [Theory]
    [InlineData(500, "Transient")]
    [InlineData(502, "Transient")]
    [InlineData(503, "Transient")]
    [InlineData(504, "Transient")]
    [InlineData(408, "Transient")]
    [InlineData(429, "Transient")]
    [InlineData(400, "Permanent")]
    [InlineData(401, "Permanent")]
    [InlineData(404, "Permanent")]
    [InlineData(410, "Permanent")]
    [InlineData(413, "Permanent")]
    [InlineData(301, "Permanent")]
    public void KindOf_Status_Expected(int status, string expected) => Assert.Equal(Enum.Parse<SendFailureKind>(expected), WebhookFailures.KindOf(status));

    [Theory]
    [InlineData(429, null, true)]
    [InlineData(429, 5, true)]
    [InlineData(503, 5, true)]
    [InlineData(503, null, false)]
    [InlineData(500, 5, false)]
    public void IsSlowDown_StatusAndRetryAfter_Expected(int status, int? retryAfterSeconds, bool expected) =>
        Assert.Equal(expected, WebhookFailures.IsSlowDown(status, retryAfterSeconds is { } s ? TimeSpan.FromSeconds(s) : null));

    [Fact]
    public void IsGone_410Only_True()
    {
        Assert.True(WebhookFailures.IsGone(410));
        Assert.False(WebhookFailures.IsGone(404));
    }

    [Fact]
    public void RetryAfter_SecondsOrDate_DelayCappedAtMax()
    {
        var now = new DateTimeOffset(2026, 11, 25, 12, 0, 0, TimeSpan.Zero);
        var max = TimeSpan.FromSeconds(60);

        Assert.Equal(TimeSpan.FromSeconds(7), RetryAfterHeader.Delay(new RetryConditionHeaderValue(TimeSpan.FromSeconds(7)), now, max));
        Assert.Equal(TimeSpan.FromSeconds(30), RetryAfterHeader.Delay(new RetryConditionHeaderValue(now.AddSeconds(30)), now, max));
        Assert.Equal(max, RetryAfterHeader.Delay(new RetryConditionHeaderValue(TimeSpan.FromHours(2)), now, max));
        Assert.Equal(TimeSpan.Zero, RetryAfterHeader.Delay(new RetryConditionHeaderValue(now.AddSeconds(-30)), now, max));
        Assert.Null(RetryAfterHeader.Delay(null, now, max));
    }

    [Fact]
    public void NoAnswer_ConnectFailedBeforeWriting_Transient()
    {
        var refused = new HttpRequestException(HttpRequestError.ConnectionError, "Connection refused", new SocketException((int)SocketError.ConnectionRefused));

        var failure = WebhookFailures.NoAnswer(refused, Request, written: false);

        Assert.Equal(SendFailureKind.Transient, failure.Kind);
        Assert.Contains("before the request was sent", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void NoAnswer_TimeoutAfterWriting_UnknownMaybeDelivered()
    {
        var failure = WebhookFailures.NoAnswer(new TimeoutRejectedException("timed out"), Request, written: true);

        Assert.Equal(SendFailureKind.Unknown, failure.Kind);
        Assert.Contains("timed out after the request was sent", failure.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void NoAnswer_TimeoutBeforeWriting_Transient() =>
        Assert.Equal(SendFailureKind.Transient, WebhookFailures.NoAnswer(new TimeoutRejectedException("timed out"), Request, written: false).Kind);

    [Fact]
    public void NoAnswer_PrivateAddressRefused_PermanentWithTheReason()
    {
        var wrapped = new HttpRequestException(HttpRequestError.ConnectionError, "connect failed",
            new PrivateAddressRefusedException("webhook host 'x' resolves to 10.0.0.1, a private (RFC 1918) address"));

        var failure = WebhookFailures.NoAnswer(wrapped, Request, written: false);

        Assert.Equal(SendFailureKind.Permanent, failure.Kind);
        Assert.Contains("10.0.0.1, a private (RFC 1918) address", failure.Describe(), StringComparison.Ordinal);
    }

    [Fact]
    public void Answered_429_TransientHandledByRateLimiterWithTheAnswer()
    {
        var failure = WebhookFailures.Answered(429, "Too Many Requests", "slow down", Request, slowDown: true, written: true);

        Assert.Equal((SendFailureKind.Transient, 429, true, false), (failure.Kind, failure.Status, failure.HandledByRateLimiter, failure.MaybeDelivered));
        Assert.Equal("webhook transient failure: POST to webhook endpoint 'chat' (hooks.example.com) answered 429 Too Many Requests: slow down", failure.Describe());
    }

    [Fact]
    public void Answered_TheReceiverEchoesTheUrl_TheEchoIsCutOut()
    {
        var failure = WebhookFailures.Answered(404, "Not Found", $"Cannot POST /services/{Token}?key={Token} (see https://hooks.example.com/services/{Token})", Request, slowDown: false, written: true);

        Assert.DoesNotContain(Token, failure.Describe(), StringComparison.Ordinal);
        Assert.Equal("webhook permanent failure: POST to webhook endpoint 'chat' (hooks.example.com) answered 404 Not Found: Cannot POST … (see https://hooks.example.com…)", failure.Describe());
    }

    [Fact]
    public void NoAnswer_TheExceptionNamesTheUrl_TheUrlIsCutOut()
    {
        var failed = new HttpRequestException($"An error occurred while sending the request to https://hooks.example.com/services/{Token}?key={Token}");

        var failure = WebhookFailures.NoAnswer(failed, Request, written: false);

        Assert.DoesNotContain(Token, failure.Describe(), StringComparison.Ordinal);
        Assert.Contains("POST to webhook endpoint 'chat' (hooks.example.com) failed (An error occurred while sending the request to …)", failure.Message, StringComparison.Ordinal);
    }

    // Issue 27 (3): a 5xx or 408 to a request the receiver read counted as "not sent", and at most once sent it again; a
    // gateway's 502 or 504 can follow the application's work.
    [Theory]
    [InlineData(502, false, true, true)]
    [InlineData(504, false, true, true)]
    [InlineData(500, false, true, true)]
    [InlineData(503, false, true, true)]
    [InlineData(408, false, true, true)]
    [InlineData(502, false, false, false)]
    [InlineData(503, true, true, false)]
    [InlineData(429, true, true, false)]
    [InlineData(429, false, true, false)]
    [InlineData(404, false, true, false)]
    public void Answered_ErrorAfterTheRequestWasWritten_MaybeDeliveredUnlessARefusal(int status, bool slowDown, bool written, bool maybeDelivered)
    {
        var failure = WebhookFailures.Answered(status, null, "", Request, slowDown, written);

        Assert.Equal(maybeDelivered, failure.MaybeDelivered);
    }
}
