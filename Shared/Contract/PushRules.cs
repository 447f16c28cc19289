namespace Notifications.Shared.Contract;

/// <summary>
/// What a push row must be: recipient = <c>fcm:&lt;registration token&gt;</c> or <c>apns:&lt;device token&gt;</c>, subject = the
/// title, body = the text, data = custom data (a JSON object of string values, as FCM requires); a title, a text or data at
/// least. Both providers refuse a payload over 4 KB; the sender checks the exact payload it builds as well.
/// </summary>
public static class PushRules
{
    /// <summary>The FCM provider's prefix in a push recipient.</summary>
    public const string Fcm = ChannelRules.Fcm;

    /// <summary>The APNs provider's prefix in a push recipient.</summary>
    public const string Apns = ChannelRules.Apns;

    /// <summary>APNs' and FCM's payload limit, in bytes.</summary>
    public const int MaxPayloadBytes = ChannelRules.MaxPushPayloadBytes;

    /// <summary>Null when <paramref name="message"/> is a valid push row; otherwise why not.</summary>
    public static string? Validate(NotificationMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        return ChannelRules.PushRecipient(message.Recipient, out _, out _)
            ?? ChannelFields.EmailOnly(message, NotificationChannels.Push, bodyAllowed: true)
            ?? ChannelRules.PushContent(message.Subject, message.Body, message.Data);
    }

    /// <summary>Splits a push recipient into its provider (<see cref="Fcm"/> or <see cref="Apns"/>) and token; false and why when it is not one.</summary>
    public static bool TryParseRecipient(string? recipient, out string provider, out string token, out string? error)
    {
        error = ChannelRules.PushRecipient(recipient, out provider, out token);
        return error is null;
    }
}
