namespace Notifications.Shared.Data;

/// <summary>One failed attempt of a notification that is tried again, as its story keeps it (table <c>delivery_attempt</c>).</summary>
/// <param name="Id">The notification id.</param>
/// <param name="Attempt">The attempt that failed (1 = first delivery).</param>
/// <param name="Reason">The failure, as a dead letter's reason says it (the server's reply for a refused send).</param>
/// <param name="TraceId">The trace its handling belonged to (32 lowercase hex digits); null when it was not traced.</param>
public readonly record struct FailedAttempt(long Id, int Attempt, string Reason, string? TraceId)
{
    /// <summary>The reason as stored: at most <see cref="DeadLetterRecord.MaxReasonLength"/> characters, as a dead letter's.</summary>
    public string StoredReason => DeadLetterRecord.Cut(Reason, DeadLetterRecord.MaxReasonLength)!;
}
