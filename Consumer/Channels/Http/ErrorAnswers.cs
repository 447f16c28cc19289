namespace Notifications.Consumer.Channels.Http;

/// <summary>
/// What an HTTP channel's error answer (webhooks, push) says about a request whose body was written in full. A 408 or a 5xx
/// does not say the request was not acted on: a gateway answers 502 or 504 when the application behind it took the request
/// and then failed or was slow to answer, and a 500 may come after the work was done; so it may have been delivered. A
/// refusal before any work says it was not: a "slow down" (429, a 503 asking to come back later), credentials refused
/// (401, 403), a redirect not followed.
/// </summary>
internal static class ErrorAnswers
{
    /// <summary>Whether answering <paramref name="status"/> leaves the request maybe delivered.</summary>
    /// <param name="status">The HTTP status of the answer (not 2xx).</param>
    /// <param name="written">The request's body was written in full before the answer came.</param>
    /// <param name="slowDown">The answer asks to come back later (the channel's reading of 429 and 503).</param>
    public static bool MaybeDelivered(int status, bool written, bool slowDown) => written && !slowDown && status is 408 or >= 500;
}
