using System.Globalization;

namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// What a provider's answer means for the message (docs/push.md has the table): a 429 or 503 is a "slow down" (transient, its
/// Retry-After honoured); 401 and 403 are our credentials' fault, not the message's (transient: the provider's breaker opens);
/// an unregistered token (FCM 404 UNREGISTERED, APNs 410 Unregistered or 400 BadDeviceToken) is permanent and suppresses the
/// token; another 4xx is permanent; a 5xx (and 408) transient, and maybe delivered when the body was written in full (but a
/// 503: <see cref="Http.ErrorAnswers"/>; at most once does not send it again).
/// </summary>
internal static class PushFailures
{
    /// <param name="provider"><c>fcm</c> or <c>apns</c>.</param>
    /// <param name="status">The provider's HTTP status (not 2xx).</param>
    /// <param name="reason">The provider's reason, if it gave one.</param>
    /// <param name="gone">The provider says the token is no longer valid.</param>
    /// <param name="written">The request's body was written in full before the answer came.</param>
    public static PushSendException Classify(string provider, int status, string? reason, bool gone, bool written)
    {
        var kind = status switch
        {
            401 or 403 or 408 or 429 or >= 500 => SendFailureKind.Transient,
            >= 400 => SendFailureKind.Permanent,
            // A redirect or an informational answer to a POST: the base URL is wrong, not the message.
            _ => SendFailureKind.Transient,
        };
        string message = string.Create(CultureInfo.InvariantCulture, $"{provider} answered {status} {reason ?? "(no reason)"}");
        bool slowDown = status is 429 or 503;
        return new PushSendException(kind, provider, status, reason, message)
        {
            Gone = gone && kind == SendFailureKind.Permanent,
            SlowDown = slowDown,
            MaybeDelivered = Http.ErrorAnswers.MaybeDelivered(status, written, slowDown),
        };
    }

    /// <summary>A request the provider never answered: maybe delivered when its body was written, else not sent.</summary>
    public static PushSendException CutOff(string provider, bool bodyWritten, string what, Exception cause) => new(
        bodyWritten ? SendFailureKind.Unknown : SendFailureKind.Transient, provider, null, null,
        $"{provider} {what} {(bodyWritten ? "after the request was sent; it may have been delivered" : "before the request was sent")}: {cause.Message}",
        cause);
}
