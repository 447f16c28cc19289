namespace Notifications.Consumer.Channels;

/// <summary>What a failed send means for the message, whichever the channel; it decides whether it may be sent again.</summary>
internal enum SendFailureKind
{
    /// <summary>
    /// Not accepted, may succeed later: SMTP's 4xx, an HTTP 5xx, 429 or 408, a failure to reach or talk to the server
    /// (including an SMTP 5xx to the greeting, EHLO, STARTTLS or AUTH, which is the server's or configuration's fault,
    /// not the message's), or an I/O error or timeout before the message was handed over (SMTP's final ".", an HTTP request
    /// not yet written).
    /// </summary>
    Transient,

    /// <summary>Rejected for good: SMTP's 5xx to the transaction, an HTTP 4xx but 408 and 429, or a message that can never be sent as is.</summary>
    Permanent,

    /// <summary>
    /// The connection was lost, timed out or cancelled after the message was handed over and before the answer was read:
    /// the server may or may not have accepted it.
    /// </summary>
    Unknown,
}
