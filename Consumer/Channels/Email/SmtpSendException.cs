namespace Notifications.Consumer.Channels.Email;

/// <summary>A send failed; <see cref="Kind"/> says whether the message may be sent again.</summary>
internal sealed class SmtpSendException : Exception
{
    public SmtpSendException()
        : this(SmtpFailureKind.Unknown, null, "The SMTP send failed.")
    {
    }

    public SmtpSendException(string message)
        : this(SmtpFailureKind.Unknown, null, message)
    {
    }

    public SmtpSendException(string message, Exception innerException)
        : this(SmtpFailureKind.Unknown, null, message, innerException)
    {
    }

    /// <param name="kind">What the failure means for the message.</param>
    /// <param name="replyCode">The server's reply code, when a reply caused the failure.</param>
    /// <param name="message">What failed, with the server's reply text when there was one.</param>
    /// <param name="innerException">The I/O error or timeout behind the failure, if any.</param>
    public SmtpSendException(SmtpFailureKind kind, int? replyCode, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        Kind = kind;
        ReplyCode = replyCode;
    }

    public SmtpFailureKind Kind { get; }

    public int? ReplyCode { get; }

    /// <summary>
    /// A "slow down" reply the fleet's rate limiter took up: it lowered the rate of the destination's limit. The relay
    /// answered, so the relay breaker does not count it as a relay failure; the message takes the ordinary retry path.
    /// </summary>
    public bool HandledByRateLimiter { get; init; }
}
