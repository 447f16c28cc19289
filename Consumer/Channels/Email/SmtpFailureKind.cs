namespace Notifications.Consumer.Channels.Email;

/// <summary>What a failed send means for the message, which decides whether it may be sent again.</summary>
internal enum SmtpFailureKind
{
    /// <summary>
    /// Not accepted, may succeed later: a 4xx reply, a failure to reach or talk to the server (including a
    /// 5xx to the greeting, EHLO, STARTTLS or AUTH, which is the server's or configuration's fault, not the
    /// message's), or an I/O error or timeout before the final "." was written.
    /// </summary>
    Transient,

    /// <summary>Rejected for good: a 5xx reply to the transaction, or a message that can never be sent as is.</summary>
    Permanent,

    /// <summary>
    /// The connection was lost, timed out or cancelled after the final "." was written and before the
    /// reply was read: the server may or may not have accepted the message.
    /// </summary>
    Unknown,
}
