using Notifications.Consumer.Channels.Push;
using Notifications.Consumer.Channels.Push.Apns;
using Notifications.Consumer.Channels.Push.Fcm;

namespace Notifications.UnitTests.Push;

/// <summary>What each provider answer means for the message (docs/push.md's table).</summary>
public sealed class PushFailuresTests
{
    [Theory]
    [InlineData("fcm", 404, """{"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}""", "UNREGISTERED", "Permanent", true)]
    [InlineData("fcm", 400, """{"error":{"code":400,"status":"INVALID_ARGUMENT","details":[{"errorCode":"INVALID_ARGUMENT"}]}}""", "INVALID_ARGUMENT", "Permanent", false)]
    [InlineData("fcm", 401, """{"error":{"code":401,"status":"UNAUTHENTICATED"}}""", "UNAUTHENTICATED", "Transient", false)]
    [InlineData("fcm", 403, """{"error":{"code":403,"status":"PERMISSION_DENIED","details":[{"errorCode":"SENDER_ID_MISMATCH"}]}}""", "SENDER_ID_MISMATCH", "Transient", false)]
    [InlineData("fcm", 429, """{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"errorCode":"QUOTA_EXCEEDED"}]}}""", "QUOTA_EXCEEDED", "Transient", false)]
    [InlineData("fcm", 500, """{"error":{"code":500,"status":"INTERNAL"}}""", "INTERNAL", "Transient", false)]
    [InlineData("fcm", 503, "not json", null, "Transient", false)]
    [InlineData("apns", 410, """{"reason":"Unregistered","timestamp":1764072000000}""", "Unregistered", "Permanent", true)]
    [InlineData("apns", 400, """{"reason":"BadDeviceToken"}""", "BadDeviceToken", "Permanent", true)]
    [InlineData("apns", 400, """{"reason":"BadCollapseId"}""", "BadCollapseId", "Permanent", false)]
    [InlineData("apns", 413, """{"reason":"PayloadTooLarge"}""", "PayloadTooLarge", "Permanent", false)]
    [InlineData("apns", 403, """{"reason":"ExpiredProviderToken"}""", "ExpiredProviderToken", "Transient", false)]
    [InlineData("apns", 429, """{"reason":"TooManyRequests"}""", "TooManyRequests", "Transient", false)]
    [InlineData("apns", 500, """{"reason":"InternalServerError"}""", "InternalServerError", "Transient", false)]
    [InlineData("apns", 302, "", null, "Transient", false)]
    public void Classify_ProviderAnswer_KindAndGone(string provider, int status, string body, string? reason, string kind, bool gone)
    {
        IPushProvider answering = provider == "fcm"
            ? new FcmProvider(new FcmOptions(), Link(), tokens: null, TimeProvider.System)
            : new ApnsProvider(new ApnsOptions(), Link(), token: null);

        string? read = answering.ReasonOf(body);
        var failure = PushFailures.Classify(provider, status, read, answering.IsGone(status, read), written: true);

        Assert.Equal((reason, kind, gone, status is 429 or 503), (read, failure.Kind.ToString(), failure.Gone, failure.SlowDown));
        Assert.StartsWith($"push {provider} {kind.ToLowerInvariant()} failure {status}: {provider} answered {status}", failure.Describe(), StringComparison.Ordinal);
    }

    // Issue 27 (3): a 5xx to a request whose body the provider read counted as "not sent", and at most once sent it again.
    [Theory]
    [InlineData(500, true, true)]
    [InlineData(502, true, true)]
    [InlineData(504, true, true)]
    [InlineData(408, true, true)]
    [InlineData(500, false, false)]
    [InlineData(503, true, false)]
    [InlineData(429, true, false)]
    [InlineData(401, true, false)]
    [InlineData(403, true, false)]
    [InlineData(302, true, false)]
    [InlineData(400, true, false)]
    public void Classify_ErrorAnswerAfterTheBody_MaybeDeliveredUnlessARefusal(int status, bool written, bool maybeDelivered)
    {
        var failure = PushFailures.Classify("fcm", status, null, gone: false, written);

        Assert.Equal(maybeDelivered, failure.MaybeDelivered);
    }

    [Theory]
    [InlineData(true, "Unknown")]
    [InlineData(false, "Transient")]
    public void CutOff_BodyWrittenOrNot_UnknownOrTransient(bool written, string expected)
    {
        var failure = PushFailures.CutOff("apns", written, "did not answer in time", new TimeoutException("1 s"));

        Assert.Equal(expected, failure.Kind.ToString());
        Assert.False(failure.Gone);
    }

    private static ProviderLink Link() => new(new HttpClient(), null!, "push.test", new ProviderPause(TimeProvider.System));
}
