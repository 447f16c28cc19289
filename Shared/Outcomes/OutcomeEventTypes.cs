namespace Notifications.Shared.Outcomes;

/// <summary>
/// The outcome event types an endpoint may subscribe to (docs/outcome-events.md). They are the webhook rows' types
/// (subjects) of the events; a webhook row of one of these types is an event and never has an event of its own.
/// </summary>
public static class OutcomeEventTypes
{
    /// <summary>The receiving server (SMTP relay, push provider, webhook endpoint, gateway) took the notification.</summary>
    public const string Delivered = "notification.delivered";

    /// <summary>A bounce came back for a delivered mail (the bounce receiver).</summary>
    public const string Bounced = "notification.bounced";

    /// <summary>The recipient marked a delivered mail as spam (a feedback report).</summary>
    public const string Complained = "notification.complained";

    /// <summary>The notification was dead-lettered: never to be sent, with the reason.</summary>
    public const string DeadLettered = "notification.dead_lettered";

    /// <summary>Not sent: its recipient is on the suppression list.</summary>
    public const string Suppressed = "notification.suppressed";

    /// <summary>Not sent: its subscriber opted out of its category.</summary>
    public const string OptedOut = "notification.opted_out";

    /// <summary>A live notification an app acknowledged (docs/live.md).</summary>
    public const string Acked = "notification.acked";

    /// <summary>A live notification that expired unacknowledged.</summary>
    public const string Expired = "notification.expired";

    /// <summary>Every type, in the order of a notification's life.</summary>
    public static IReadOnlyList<string> All { get; } = [Delivered, Bounced, Complained, DeadLettered, Suppressed, OptedOut, Acked, Expired];

    /// <summary>
    /// The types that follow another event of the same notification (a bounce follows its delivery): such an event is not sent
    /// before its notification's earlier events to the same endpoint are settled (sent or dead-lettered).
    /// </summary>
    public static bool FollowsAnother(string type) => type is Bounced or Complained or Acked or Expired;

    /// <summary>Whether <paramref name="type"/> names an outcome event.</summary>
    public static bool IsKnown(string? type) => type is not null && All.Contains(type, StringComparer.Ordinal);
}
