namespace Notifications.Shared.Contract;

/// <summary>
/// What a live row must be (docs/live.md): recipient = the subscriber, the app's own id (as its clients' tokens name it in
/// <c>sub</c>); subject = the title, body = the text, data = custom data (a JSON object of string values); a title, a text or
/// data at least, at most 4 KB together: the rules of push, which a live notification falls back to.
/// </summary>
public static class LiveRules
{
    /// <summary>Null when <paramref name="message"/> is a valid live row; otherwise why not.</summary>
    public static string? Validate(NotificationMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        return AudienceRules.SubscriberId(message.Recipient)
            ?? ChannelFields.EmailOnly(message, NotificationChannels.Live, bodyAllowed: true)
            ?? ChannelRules.LiveContent(message.Subject, message.Body, message.Data);
    }
}
