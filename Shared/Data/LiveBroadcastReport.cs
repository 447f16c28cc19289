namespace Notifications.Shared.Data;

/// <summary>
/// One broadcast to a topic as <c>admin show</c> and the console's story page give it (docs/live.md#broadcasts-to-a-topic):
/// its topic, when it was written and until when it is sent, its delivery mode, and its receipts (one per subscriber that has
/// one) by state, then the first few in subscriber order. A receipt's state: <c>acked</c> (an app of the subscriber acked
/// it), <c>expired</c> (past the subscriber's cap, never sent to it again) or <c>sent</c> (marked sent at most once, not acked).
/// At least once, a subscriber sent it without acking has no receipt: the gateways keep no record per subscriber of what
/// they sent.
/// </summary>
public sealed record LiveBroadcastReport(
    string Topic, DateTimeOffset CreatedAt, DateTimeOffset ExpiresAt, bool AtMostOnce, IReadOnlyList<ReceiptTally> Tallies, IReadOnlyList<ReceiptEntry> First);

/// <summary>How many receipts of a broadcast are in <paramref name="State"/>.</summary>
public sealed record ReceiptTally(string State, long Count);

/// <summary>One subscriber's receipt of a broadcast: the subscriber by the app's id, its state, and when it came to it.</summary>
public sealed record ReceiptEntry(string Subscriber, string State, DateTimeOffset At);
