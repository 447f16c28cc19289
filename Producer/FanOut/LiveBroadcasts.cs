using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Producer.FanOut;

/// <summary>
/// A row of channels <c>live</c> alone to a topic, published by the claim as one live notification to the topic
/// (<see cref="FanOutOptions.LiveBroadcast"/>; docs/live.md#broadcasts-to-a-topic): no job, no page, no delivery per subscriber.
/// </summary>
internal static class LiveBroadcasts
{
    /// <summary>Whether <paramref name="row"/> (an audience row) is a live broadcast to a topic.</summary>
    public static bool IsBroadcast(OutboxRow row) => LiveRules.IsBroadcast(row.Recipient, row.Channels);

    /// <summary>The row as published: channel <c>live</c>, to the topic, under the row's own id, its content as it is.</summary>
    public static OutboxRow Row(OutboxRow row) => new()
    {
        Id = row.Id,
        Recipient = row.Recipient,
        Channel = NotificationChannels.Live,
        LiveBroadcast = true,
        Subject = string.IsNullOrEmpty(row.Subject) ? null : row.Subject,
        Body = string.IsNullOrEmpty(row.Body) ? null : row.Body,
        Data = row.Data,
        CreatedAt = row.CreatedAt,
        ExpiresAt = row.ExpiresAt,
        TraceParent = row.TraceParent,
        Priority = row.Priority,
        Category = row.Category,
    };
}
