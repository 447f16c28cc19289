using System.Net;
using Notifications.Shared.Contract;
using Polly.Timeout;

namespace Notifications.Consumer.Channels.Webhook;

/// <summary>
/// What an endpoint's answer, or the lack of one, means for the message: 2xx delivered; 410 the endpoint is gone (disabled,
/// permanent); 429, and 503 with Retry-After, "slow down" (transient, taken up by the limiter); 408 and other 5xx transient,
/// and maybe delivered when the request was written in full (<see cref="Http.ErrorAnswers"/>: at most once does not send it
/// again); other 4xx and 3xx (redirects are not followed) permanent. No answer: transient while the request was not written
/// (connect, TLS), unknown after it (the receiver may have it); a private address refused is permanent. The messages name
/// the endpoint and its host, never its URL (which may hold a token).
/// </summary>
internal static class WebhookFailures
{
    /// <summary>Null for 2xx (delivered); else what the status means.</summary>
    public static SendFailureKind? KindOf(int status) => status switch
    {
        >= 200 and < 300 => null,
        408 or 429 => SendFailureKind.Transient,
        >= 500 => SendFailureKind.Transient,
        _ => SendFailureKind.Permanent,
    };

    /// <summary>The answer asks the fleet to slow down: a 429, or a 503 with Retry-After.</summary>
    public static bool IsSlowDown(int status, TimeSpan? retryAfter) => status == 429 || (status == 503 && retryAfter is not null);

    /// <summary>The endpoint says it is gone for good: disable it.</summary>
    public static bool IsGone(int status) => status == (int)HttpStatusCode.Gone;

    /// <summary>The failure of a send that got no answer; <paramref name="written"/>: the request was written in full.</summary>
    public static WebhookSendException NoAnswer(Exception exception, WebhookRequest request, bool written)
    {
        if (Find<PrivateAddressRefusedException>(exception) is { } refused)
        {
            return new WebhookSendException(SendFailureKind.Permanent, null, refused.Message, exception);
        }

        string what = exception is TimeoutRejectedException ? "timed out" : $"failed ({Scrubbed(Innermost(exception).Message, request)})";
        return written
            ? new WebhookSendException(SendFailureKind.Unknown, null, $"POST to {request.Target} {what} after the request was sent: maybe delivered", exception)
            : new WebhookSendException(SendFailureKind.Transient, null, $"POST to {request.Target} {what} before the request was sent", exception);
    }

    /// <summary>
    /// The failure of a non-2xx answer; <paramref name="written"/>: the request was written in full before it;
    /// <paramref name="excerpt"/> (the answer's first bytes) has the URL cut out.
    /// </summary>
    public static WebhookSendException Answered(int status, string? reasonPhrase, string excerpt, WebhookRequest request, bool slowDown, bool written)
    {
        excerpt = Scrubbed(excerpt, request);
        return new(KindOf(status) ?? SendFailureKind.Permanent, status,
            $"POST to {request.Target} answered {status} {reasonPhrase}{(excerpt.Length > 0 ? ": " + excerpt : "")}".TrimEnd(), null)
        {
            HandledByRateLimiter = slowDown,
            MaybeDelivered = Http.ErrorAnswers.MaybeDelivered(status, written, slowDown),
        };
    }

    // The endpoint's URL may hold a token (in its path or query): text that comes from elsewhere has it cut out.
    private static string Scrubbed(string text, WebhookRequest request) => WebhookUrlRedaction.Scrub(text, request.Url);

    private static T? Find<T>(Exception? exception)
        where T : Exception
    {
        for (; exception is not null; exception = exception.InnerException)
        {
            if (exception is T found)
            {
                return found;
            }
        }

        return null;
    }

    private static Exception Innermost(Exception exception) => exception.InnerException is { } inner ? Innermost(inner) : exception;
}
