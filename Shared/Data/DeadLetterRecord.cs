namespace Notifications.Shared.Data;

/// <summary>A message moved to the dead-letter queue, as the <c>dead_letter</c> table records it.</summary>
/// <param name="NotificationId">The notification id; null when the message's id could not be read (garbage bytes).</param>
/// <param name="Reason">Why (the <c>x-dead-reason</c> header); cut to <see cref="MaxReasonLength"/> characters.</param>
/// <param name="Attempts">Attempts it had (the <c>x-dead-attempts</c> header).</param>
/// <param name="DeadLetteredAt">When (the <c>x-dead-at</c> header, whole milliseconds, so the row and the message match).</param>
public sealed record DeadLetterRecord(long? NotificationId, string Reason, int Attempts, DateTimeOffset DeadLetteredAt)
{
    /// <summary>The <c>reason</c> column's length.</summary>
    public const int MaxReasonLength = 1000;

    /// <summary>The reason as stored: at most <see cref="MaxReasonLength"/> characters.</summary>
    public string StoredReason => Reason.Length <= MaxReasonLength ? Reason : Reason[..(MaxReasonLength - 1)] + "…";

    /// <summary>
    /// A batch as the stores write it: the latest record of each notification id (one statement may not
    /// touch the same row twice), and the records without an id, each its own row.
    /// </summary>
    public static (DeadLetterRecord[] WithId, DeadLetterRecord[] WithoutId) Split(IEnumerable<DeadLetterRecord> records)
    {
        var all = records.ToList();
        var withId = all.Where(d => d.NotificationId is not null).GroupBy(d => d.NotificationId).Select(g => g.MaxBy(d => d.DeadLetteredAt)!).ToArray();
        return (withId, all.Where(d => d.NotificationId is null).ToArray());
    }

    /// <summary>The instant as stored and as the message's header carries it: whole milliseconds.</summary>
    public DateTimeOffset StoredAt => DateTimeOffset.FromUnixTimeMilliseconds(DeadLetteredAt.ToUnixTimeMilliseconds());
}
