namespace Notifications.Consumer.Channels;

/// <summary>
/// A send failed, on any channel; <see cref="Kind"/> says whether the message may be sent again. Each channel throws its
/// own kind of it (SMTP's with the reply code, HTTP's with the status); the pipeline reads only what is here.
/// </summary>
internal class SendFailedException : Exception
{
    public SendFailedException()
        : this(SendFailureKind.Unknown, "The send failed.")
    {
    }

    public SendFailedException(string message)
        : this(SendFailureKind.Unknown, message)
    {
    }

    public SendFailedException(string message, Exception innerException)
        : this(SendFailureKind.Unknown, message, innerException)
    {
    }

    /// <param name="kind">What the failure means for the message.</param>
    /// <param name="message">What failed, with the server's answer when there was one.</param>
    /// <param name="innerException">The I/O error or timeout behind the failure, if any.</param>
    public SendFailedException(SendFailureKind kind, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        Kind = kind;
    }

    public SendFailureKind Kind { get; }

    /// <summary>
    /// A "slow down" answer the fleet's rate limiter took up (it lowered or paused the destination's rate). The server
    /// answered, so the breaker does not count it as a failure of the server; the message takes the ordinary retry path.
    /// </summary>
    public bool HandledByRateLimiter { get; init; }

    /// <summary>
    /// An error answer to a message the server read in full that does not say the message was not acted on: an HTTP 408 or
    /// 5xx (a gateway's 502 or 504 can follow the application's work; <see cref="Http.ErrorAnswers"/>). The kind stays
    /// <see cref="SendFailureKind.Transient"/> (at least once sends it again, the breaker counts it); at most once takes it
    /// as <see cref="SendFailureKind.Unknown"/>: maybe delivered, not sent again.
    /// </summary>
    public bool MaybeDelivered { get; init; }

    /// <summary>The failure as a dead letter's or retry's reason: channel, kind, code and the server's answer.</summary>
    public virtual string Describe() => $"send {Kind.ToString().ToLowerInvariant()} failure: {Message}";
}
