using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;

namespace Notifications.Admin.Operations;

/// <summary>
/// What happened to one notification: its status (the <c>notification_status</c> function's answer), the steps the
/// database keeps, its trace id while one is kept, its live copy still pending, a fan-out's deliveries, a live broadcast's
/// receipts (<see cref="Broadcast"/>, null for any other notification), and what is not kept.
/// </summary>
public sealed record NotificationStoryRecord(
    NotificationStatus Status,
    IReadOnlyList<StoryStep> Steps,
    string? TraceId,
    string? Recipient,
    LivePendingState? Live,
    FanOutDeliveryReport Deliveries,
    IReadOnlyList<string> NotKept)
{
    /// <summary>The broadcast to a topic this notification is, with its receipts; null when it is none.</summary>
    public LiveBroadcastReport? Broadcast { get; init; }
}
