namespace Notifications.Shared.Data;

/// <summary>
/// A live notification to a topic (table <c>live_broadcast</c>, db/*/042_live_broadcasts.sql; docs/live.md#broadcasts-to-a-topic):
/// one row, whatever the topic's size, which every gateway node sends to its connections of the topic's subscribers.
/// <see cref="AtMostOnce"/>: the consumer's delivery mode when it wrote the row; each subscriber is then sent it at most once
/// (its receipt marked sent first).
/// </summary>
public sealed record LiveBroadcast(
    long Id, string Topic, string? Category, string? Subject, string? Body, string? Data, DateTimeOffset ExpiresAt, bool AtMostOnce);
