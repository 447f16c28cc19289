namespace Notifications.Shared.Data.Operations;

/// <summary>Finds notifications by what an operator knows of them and reads every row kept of one. One implementation per SQL dialect.</summary>
public interface INotificationSearchStore
{
    /// <summary>
    /// Up to <paramref name="limit"/> notifications matching <paramref name="text"/> exactly as <paramref name="kind"/>, highest id
    /// first, below <paramref name="before"/> (keyset; null: from the top). Every branch is an index seek, but the outbox by
    /// recipient, which looks at the newest <see cref="OutboxScanLimit"/> waiting rows below the cursor only.
    /// </summary>
    Task<IReadOnlyList<NotificationHit>> FindAsync(NotificationSearchKind kind, string text, long? before, int limit, CancellationToken cancellationToken);

    /// <summary>Every row kept of notification <paramref name="id"/> (one round trip).</summary>
    Task<NotificationRecords> ReadAsync(long id, CancellationToken cancellationToken);

    /// <summary>How many waiting rows a search of the outbox by recipient looks at (the outbox has no index on recipient: the hot path's inserts and deletes would pay for one).</summary>
    public const int OutboxScanLimit = 100_000;
}
