namespace Notifications.Shared.Data;

/// <summary>
/// A live notification waiting for its subscriber's app to ack it (table <c>live_pending</c>, db/*/032_live.sql and
/// 033_live_channel.sql). <see cref="AtMostOnce"/>: the consumer's delivery mode when it wrote the row; such a row is sent
/// at most once (marked sent first).
/// </summary>
public sealed record LivePending(
    long Id, string Subscriber, string? Subject, string? Body, string? Data, DateTimeOffset? ExpiresAt, bool AtMostOnce);

/// <summary>What <see cref="ILivePendingStore.AddAsync"/> did: whether it added the row, and how many older rows it expired.</summary>
public readonly record struct LiveAdded(bool Added, int Expired);

/// <summary>
/// A live notification as it stands (<see cref="ILivePendingStore.FindAsync"/>): whose, since when, until when, and when a
/// gateway sent it if it went at most once.
/// </summary>
public sealed record LivePendingState(string Subscriber, DateTimeOffset CreatedAt, DateTimeOffset? ExpiresAt, DateTimeOffset? SentAt, bool AtMostOnce);
