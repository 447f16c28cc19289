namespace Notifications.Consumer.Channels.Push;

/// <summary>
/// A push notification made ready (<see cref="PushChannel.PrepareAsync"/>): the provider, the device token, the exact request
/// body, and for APNs its headers. <see cref="Recipient"/> is the row's (<c>fcm:…</c> / <c>apns:…</c>): the suppression key.
/// </summary>
internal sealed record PushNotification(
    long NotificationId, DateTimeOffset CreatedAt, string Recipient, string Provider, string Token, byte[] Body, ApnsHeaders? Apns)
    : Outgoing(NotificationId, CreatedAt);

/// <summary>The APNs request headers of one notification (the topic and token are the channel's).</summary>
/// <param name="PushType"><c>alert</c> with a title or text, <c>background</c> for data only.</param>
/// <param name="Priority">10 (at once), or 5 (power-saving: bulk and background).</param>
/// <param name="Expiration">Unix seconds after which APNs stops trying; 0: one attempt only.</param>
/// <param name="Id">The <c>apns-id</c>: a UUID derived from the notification id.</param>
internal sealed record ApnsHeaders(string PushType, int Priority, long Expiration, Guid Id);
