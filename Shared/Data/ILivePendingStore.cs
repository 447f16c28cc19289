namespace Notifications.Shared.Data;

/// <summary>
/// The live channel's pending notifications (<c>live_pending</c>), one implementation per SQL dialect. The consumer adds
/// a row before it publishes it to the gateways; a gateway reads a subscriber's rows when an app connects, marks an
/// at-most-once row sent before it sends it, and deletes a row when the app acks it. Pending state is the database's, so it
/// survives a gateway's crash and an app may reconnect to any node (docs/live.md).
/// </summary>
public interface ILivePendingStore
{
    /// <summary>
    /// Adds each of <paramref name="rows"/> unless a row of its id is pending already (a redelivered message), in one
    /// transaction; then, of each of their subscribers with more than <paramref name="cap"/> unexpired rows, expires the oldest
    /// beyond it (a client that never acks). Returns those subscribers.
    /// </summary>
    Task<IReadOnlyList<LiveCapped>> AddAsync(IReadOnlyList<LivePending> rows, int cap, CancellationToken cancellationToken);

    /// <summary>
    /// The subscriber's rows an app should receive now, oldest first, at most <paramref name="max"/>: unexpired, and, of the
    /// at-most-once ones, those no gateway has sent yet.
    /// </summary>
    Task<IReadOnlyList<LivePending>> PendingAsync(string subscriber, int max, CancellationToken cancellationToken);

    /// <summary>
    /// How many rows each of <paramref name="subscribers"/> has that an app would receive now (as <see cref="PendingAsync"/>
    /// reads them), each counted up to <paramref name="cap"/> + 1; a subscriber with none is left out. One statement.
    /// </summary>
    Task<IReadOnlyDictionary<string, int>> CountPendingAsync(IReadOnlyList<string> subscribers, int cap, CancellationToken cancellationToken);

    /// <summary>Marks the rows of <paramref name="ids"/> sent; the ids that were not sent before (those to send now).</summary>
    Task<IReadOnlyList<long>> MarkSentAsync(IReadOnlyList<long> ids, CancellationToken cancellationToken);

    /// <summary>
    /// Apps acked <paramref name="acks"/>, in one statement: each row that was its subscriber's and pending is gone; returns
    /// those acks (an ack of another subscriber's id, or of one gone already, is not among them). With
    /// <paramref name="withEvents"/>, each row gone is a <c>notification.acked</c> outcome event, written in the same
    /// transaction (<see cref="Outcomes.OutcomeEvents"/>); without, the delete is all.
    /// </summary>
    Task<IReadOnlySet<LiveAck>> AckAsync(IReadOnlyList<LiveAck> acks, bool withEvents, CancellationToken cancellationToken);

    /// <summary>
    /// Marks the rows that expired unacked and were not reported yet, expired at or after <paramref name="since"/>, oldest
    /// first, at most <paramref name="max"/>: each is reported once (rows another sweep holds are left to it). With
    /// <paramref name="withEvents"/>, each is a <c>notification.expired</c> outcome event, written in the same transaction.
    /// Returns how many it marked.
    /// </summary>
    Task<int> ReportExpiredAsync(DateTimeOffset since, int max, bool withEvents, CancellationToken cancellationToken);

    /// <summary>Live notification <paramref name="id"/>'s row, or null when it has none (not live, acked, or removed).</summary>
    Task<LivePendingState?> FindAsync(long id, CancellationToken cancellationToken);

    /// <summary>How long row <paramref name="id"/> has been pending, by the database's clock; null when there is none.</summary>
    Task<TimeSpan?> AgeAsync(long id, CancellationToken cancellationToken);

    /// <summary>
    /// Records push delivery <paramref name="id"/> as not sent because an app acked the live delivery it backs up
    /// (<c>delivery_log</c> status <c>live_acked</c>, <paramref name="reason"/> naming it), unless it has a record already.
    /// </summary>
    Task RecordLiveAckedAsync(long id, DateTimeOffset createdAt, int attempts, string reason, CancellationToken cancellationToken);
}
