namespace Notifications.Shared.Data;

/// <summary>
/// A live notification waiting for its subscriber's app to ack it (table <c>live_pending</c>, db/*/032_live.sql and
/// 033_live_channel.sql). <see cref="AtMostOnce"/>: the consumer's delivery mode when it wrote the row; such a row is sent
/// at most once (marked sent first).
/// </summary>
public sealed record LivePending(
    long Id, string Subscriber, string? Subject, string? Body, string? Data, DateTimeOffset? ExpiresAt, bool AtMostOnce);

/// <summary>A subscriber <see cref="ILivePendingStore.AddAsync"/> took past its cap: how many of its oldest rows it expired.</summary>
public readonly record struct LiveCapped(string Subscriber, int Expired);

/// <summary>An app's ack of live notification <paramref name="Id"/>, on a connection of <paramref name="Subscriber"/>.</summary>
public readonly record struct LiveAck(string Subscriber, long Id);

/// <summary>
/// A live notification as it stands (<see cref="ILivePendingStore.FindAsync"/>): whose, since when, until when, and when a
/// gateway sent it if it went at most once.
/// </summary>
public sealed record LivePendingState(string Subscriber, DateTimeOffset CreatedAt, DateTimeOffset? ExpiresAt, DateTimeOffset? SentAt, bool AtMostOnce);
