using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.FanOut;

namespace Notifications.Producer.FanOut;

/// <summary>
/// A row of channels <c>live</c> alone to a topic, published by the claim as one live notification to the topic
/// (<see cref="FanOutOptions.LiveBroadcast"/>; docs/live.md#broadcasts-to-a-topic): no job, no page, no delivery per subscriber.
/// </summary>
internal static class LiveBroadcasts
{
    /// <summary>Whether <paramref name="row"/> (an audience row) is a live broadcast to a topic.</summary>
    public static bool IsBroadcast(OutboxRow row) => LiveRules.IsBroadcast(row.Recipient, row.Channels);

    /// <summary>
    /// The row as published: a live delivery of it (<see cref="FanOutDeliveries.Row"/>) to the topic, under the row's own id.
    /// </summary>
    public static OutboxRow Row(OutboxRow row) =>
        FanOutDeliveries.Row(row, new AudienceDelivery(row.Id, SubscriberId: 0, NotificationChannels.Live, row.Recipient!), liveBroadcast: true);
}
