using System.Data.Common;
using Notifications.Shared.Contract;
using Notifications.Shared.Outcomes;

namespace Notifications.Shared.Data;

/// <summary>The outcome events of the live channel's pending rows (docs/outcome-events.md): an app's ack, an expiry unacked.</summary>
internal static class LiveOutcomeEvents
{
    /// <summary>A <c>notification.acked</c> event per row gone by an ack, at <paramref name="at"/>.</summary>
    public static List<OutcomeEvent> Acked(IEnumerable<LiveAck> gone, DateTimeOffset at) =>
        gone.Select(a => new OutcomeEvent(a.Id, OutcomeEventTypes.Acked, NotificationChannels.Live, a.Subscriber, at)).ToList();

    /// <summary>A <c>notification.expired</c> event per row that expired unacked, at its expiry.</summary>
    public static List<OutcomeEvent> Expired(IEnumerable<LiveExpiry> expired) =>
        expired.Select(e => new OutcomeEvent(e.Id, OutcomeEventTypes.Expired, NotificationChannels.Live, e.Subscriber, e.ExpiresAt)).ToList();

    /// <summary>Writes <paramref name="made"/> (none: nothing) in <paramref name="transaction"/>, then commits it: the events with what they report.</summary>
    public static async Task CommitAsync(
        OutcomeEvents events, DbConnection connection, DbTransaction transaction, IReadOnlyCollection<OutcomeEvent> made, CancellationToken cancellationToken)
    {
        await events.WriteAsync(connection, transaction, made, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
    }
}

/// <summary>A pending row the expiry sweep reported: notification <paramref name="Id"/> of <paramref name="Subscriber"/>, expired at <paramref name="ExpiresAt"/>.</summary>
internal sealed record LiveExpiry(long Id, string Subscriber, DateTimeOffset ExpiresAt);
