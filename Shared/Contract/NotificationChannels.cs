namespace Notifications.Shared.Contract;

/// <summary>
/// How a notification leaves: the outbox's <c>channel</c> column and the wire's <c>Channel</c> (absent for email).
/// Each channel reads the common columns its own way (docs/channels.md).
/// </summary>
public static class NotificationChannels
{
    /// <summary>SMTP: recipient is an address.</summary>
    public const string Email = "email";

    /// <summary>A signed HTTP POST (Standard Webhooks): recipient is a registered endpoint's name, subject the event type.</summary>
    public const string Webhook = "webhook";

    /// <summary>Mobile push (FCM HTTP v1, APNs): recipient is <c>fcm:&lt;token&gt;</c> or <c>apns:&lt;token&gt;</c>.</summary>
    public const string Push = "push";

    /// <summary>
    /// An app's own live connection through the gateway (docs/live.md): recipient is the subscriber (the app's own id, as a
    /// client token's <c>sub</c>); subject, body and data as a push notification's.
    /// </summary>
    public const string Live = "live";

    /// <summary>Every channel, in the order the documentation lists them.</summary>
    public static IReadOnlyList<string> All { get; } = [Email, Webhook, Push, Live];

    /// <summary>Whether <paramref name="channel"/> names a channel (exact, lower case, as the outbox's CHECK).</summary>
    public static bool IsKnown(string? channel) => channel is Email or Webhook or Push or Live;
}
