namespace Notifications.Shared.Data;

/// <summary>
/// The live channel's broadcasts to topics (<c>live_broadcast</c> and <c>live_broadcast_receipt</c>), one implementation per
/// SQL dialect (docs/live.md#broadcasts-to-a-topic). The consumer adds one row per broadcast; a gateway node reads which of its
/// connected subscribers to send it to, a connecting app's broadcasts not acked yet, and records acks. A subscriber receives a
/// broadcast when it was subscribed to the topic before the row was written and the category's preference or default lets
/// live through, as the fan-out decides for a delivery of its own.
/// </summary>
public interface ILiveBroadcastStore
{
    /// <summary>
    /// Adds <paramref name="broadcast"/> (a row of its id already there stays as it is: a redelivered message). False: there is
    /// no topic of its name, and nothing is written.
    /// </summary>
    Task<bool> AddAsync(LiveBroadcast broadcast, CancellationToken cancellationToken);

    /// <summary>
    /// Of <paramref name="subscribers"/> (a gateway node's connected ones), those to send broadcast <paramref name="id"/> to now:
    /// in its topic, let through by its category, not acked, unexpired. With <paramref name="atMostOnce"/> each is marked sent in
    /// the same statement, and only those this call marked are returned (another node's or an earlier mark wins).
    /// </summary>
    Task<IReadOnlyList<string>> RecipientsAsync(long id, IReadOnlyList<string> subscribers, bool atMostOnce, CancellationToken cancellationToken);

    /// <summary>
    /// The broadcasts <paramref name="subscriber"/>'s app should receive on connecting, oldest first, at most
    /// <paramref name="max"/>: not acked, unexpired, among its newest <paramref name="cap"/> such (the older ones expire for it in
    /// the same statement: a receipt marked expired, never sent again; an app that never acks), and, of the at-most-once ones,
    /// those not sent before, which this call marks sent. Returned as rows to send (<see cref="LivePending.AtMostOnce"/> false:
    /// marked already) with how many expired.
    /// </summary>
    Task<LiveBroadcastReplay> PendingAsync(string subscriber, int max, int cap, CancellationToken cancellationToken);

    /// <summary>
    /// Apps acked <paramref name="acks"/> (unique): each that names a broadcast to a topic of its subscriber, not acked before,
    /// is recorded; returns those acks.
    /// </summary>
    Task<IReadOnlySet<LiveAck>> AckAsync(IReadOnlyList<LiveAck> acks, CancellationToken cancellationToken);

    /// <summary>
    /// Broadcast <paramref name="id"/> with its receipts by state and the first <paramref name="first"/> of them in subscriber
    /// order; null when it is no broadcast (or was removed).
    /// </summary>
    Task<LiveBroadcastReport?> ReportAsync(long id, int first, CancellationToken cancellationToken);
}
