using System.Collections.Concurrent;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// When each delivery first arrived, a delivery being one notification at one device: the fan-out benchmark's count. Every
/// delivery of a fan-out carries its parent's data (so its <c>notification_id</c>) and goes to its own device, so neither
/// the id alone (<see cref="ReceiptCounter"/>) nor the device alone tells two deliveries apart; the pair does. Keeps the
/// first acceptance time of each pair (Unix microseconds) and counts the accepted repeats. On only when asked
/// (<see cref="ReceiverMode.RecordArrivals"/>): a million devices cost a dictionary entry each. Thread-safe.
/// </summary>
internal sealed class DeliveryArrivals
{
    private readonly ConcurrentDictionary<(string NotificationId, string Device), long> firstAccepted = new();
    private long duplicates;

    /// <summary>An accepted request of <paramref name="notificationId"/> (empty: none could be read) to <paramref name="device"/>.</summary>
    public void RecordAccepted(string? notificationId, string device, long unixMicroseconds)
    {
        if (!firstAccepted.TryAdd((notificationId ?? "", device), unixMicroseconds))
        {
            Interlocked.Increment(ref duplicates);
        }
    }

    public ArrivalCounts Counts() => new(firstAccepted.Count, Interlocked.Read(ref duplicates));

    /// <summary>Per notification id, the first acceptance times of its distinct devices, ascending.</summary>
    public Dictionary<string, long[]> ByNotification() =>
        firstAccepted.GroupBy(e => e.Key.NotificationId, e => e.Value, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.Order().ToArray(), StringComparer.Ordinal);

    /// <summary>Now as Unix microseconds: the clock the harness compares with the outbox's <c>created_at</c> (one machine).</summary>
    public static long NowMicroseconds() => (DateTimeOffset.UtcNow.UtcTicks - DateTimeOffset.UnixEpoch.UtcTicks) / 10;
}
