namespace Notifications.Consumer.Channels.Email;

/// <summary>An SMTP send failed; <see cref="SendFailedException.Kind"/> says whether the message may be sent again.</summary>
internal sealed class SmtpSendException : SendFailedException
{
    public SmtpSendException()
        : this(SendFailureKind.Unknown, null, "The SMTP send failed.")
    {
    }

    public SmtpSendException(string message)
        : this(SendFailureKind.Unknown, null, message)
    {
    }

    public SmtpSendException(string message, Exception innerException)
        : this(SendFailureKind.Unknown, null, message, innerException)
    {
    }

    /// <param name="kind">What the failure means for the message.</param>
    /// <param name="replyCode">The server's reply code, when a reply caused the failure.</param>
    /// <param name="message">What failed, with the server's reply text when there was one.</param>
    /// <param name="innerException">The I/O error or timeout behind the failure, if any.</param>
    public SmtpSendException(SendFailureKind kind, int? replyCode, string message, Exception? innerException = null)
        : base(kind, message, innerException)
    {
        ReplyCode = replyCode;
    }

    public int? ReplyCode { get; }

    public override string Describe() =>
        $"smtp {Kind.ToString().ToLowerInvariant()} failure{(ReplyCode is { } code ? $" {code}" : "")}: {Message}";
}
