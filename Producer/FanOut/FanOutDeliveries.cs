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
    /// deliveries (email only) carry its template and data, to render in the row's locale, else the subscriber's.
    /// </summary>
    public static OutboxRow Row(OutboxRow parent, AudienceDelivery delivery)
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
            Data = push ? parent.Data : null,
            CreatedAt = parent.CreatedAt,
            ExpiresAt = parent.ExpiresAt,
            TraceParent = parent.TraceParent,
            Priority = parent.Priority,
            Category = parent.Category,
        };
    }

    private static string? NullIfEmpty(string? value) => string.IsNullOrEmpty(value) ? null : value;
}
