namespace Notifications.Shared.Data;

/// <summary>
/// At most once: a notification whose send has an unknown outcome (the answer lost after the message was handed over, or an
/// HTTP error answer that does not say it was not taken), as the delivery log records it on its 'sending' mark.
/// </summary>
/// <param name="Id">The notification id.</param>
/// <param name="Attempts">The attempt that sent it (1 = first delivery).</param>
/// <param name="Reason">What happened, as a dead letter's reason says it.</param>
public readonly record struct MaybeSentNotification(long Id, int Attempts, string Reason)
{
    /// <summary>The reason as stored: at most <see cref="DeadLetterRecord.MaxReasonLength"/> characters, as a dead letter's.</summary>
    public string StoredReason => DeadLetterRecord.Cut(Reason, DeadLetterRecord.MaxReasonLength)!;
}
