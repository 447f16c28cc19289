using System.Globalization;
using System.Text.Json.Nodes;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.FanOut;

namespace Notifications.Producer.FanOut;

/// <summary>What a delivery of an audience row carries: the parent's content, to one contact point, under its own id.</summary>
internal static class FanOutDeliveries
{
    /// <summary>
    /// The outbox row a delivery is published as: the parent's subject, body, lane, expiry, category and trace, with the
    /// contact point's channel and address and the delivery's notification id. A push or live delivery's title and text are
    /// the subject and body (none when empty) and its data the parent's; an email's body is plain text. A templated parent's
    /// deliveries (email only) carry its template and data, to render in the row's locale, else the subscriber's. With
    /// <paramref name="liveBroadcast"/> the delivery is the parent's one broadcast to its topic (<see cref="LiveBroadcasts"/>).
    /// </summary>
    public static OutboxRow Row(OutboxRow parent, AudienceDelivery delivery, long? liveFallbackOf = null, bool liveBroadcast = false)
    {
        // A live delivery carries what a push one does: its address is the subscriber's own id (docs/live.md).
        bool push = delivery.Channel is NotificationChannels.Push or NotificationChannels.Live;
        bool templated = parent.TemplateName is not null && !push;
        return new OutboxRow
        {
            Id = delivery.Id,
            Recipient = delivery.Address,
            Channel = delivery.Channel,
            Subject = push ? NullIfEmpty(parent.Subject) : parent.Subject,
            Body = push ? NullIfEmpty(parent.Body) : parent.Body,
            TemplateName = templated ? parent.TemplateName : null,
            TemplateData = templated ? parent.TemplateData : null,
            Locale = templated ? parent.Locale ?? delivery.Locale : null,
            Data = liveFallbackOf is { } liveId ? WithNotificationId(parent.Data, liveId) : push ? parent.Data : null,
            LiveFallbackOf = liveFallbackOf,
            LiveBroadcast = liveBroadcast ? true : null,
            CreatedAt = parent.CreatedAt,
            ExpiresAt = parent.ExpiresAt,
            TraceParent = parent.TraceParent,
            Priority = parent.Priority,
            Category = parent.Category,
        };
    }

    /// <summary>
    /// The rows of a page's deliveries (<see cref="Row"/>). Under <c>live&gt;push</c> each push delivery names its subscriber's
    /// live delivery (<see cref="OutboxRow.LiveFallbackOf"/>: the consumer sends it only if no app acked that one in time) and
    /// carries its id as data <c>notification_id</c>, so an app that gets both shows it once.
    /// </summary>
    public static List<OutboxRow> Rows(FanOutJob job, IReadOnlyList<AudienceDelivery> all)
    {
        var parent = job.Parent;
        if (!job.PushWaitsForLive)
        {
            return [.. all.Select(d => Row(parent, d))];
        }

        var live = all.Where(d => d.Channel == NotificationChannels.Live).ToDictionary(d => d.SubscriberId, d => d.Id);
        return [.. all.Select(d => d.Channel == NotificationChannels.Push && live.TryGetValue(d.SubscriberId, out long liveId)
            ? Row(parent, d, liveId)
            : Row(parent, d))];
    }

    // The push data (a JSON object of strings, or none) with the live delivery's id.
    private static string WithNotificationId(string? data, long liveId)
    {
        var json = data is null ? [] : JsonNode.Parse(data) as JsonObject ?? [];
        json["notification_id"] = liveId.ToString(CultureInfo.InvariantCulture);
        return json.ToJsonString();
    }

    private static string? NullIfEmpty(string? value) => string.IsNullOrEmpty(value) ? null : value;
}
