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
        return (message.LiveBroadcast == true ? TopicOf(message.Recipient) : AudienceRules.SubscriberId(message.Recipient))
            ?? ChannelFields.EmailOnly(message, NotificationChannels.Live, bodyAllowed: true)
            ?? ChannelRules.LiveContent(message.Subject, message.Body, message.Data);
    }

    /// <summary>
    /// The topic of a live broadcast's recipient (<c>topic:&lt;name&gt;</c>; docs/live.md#broadcasts-to-a-topic), or null when
    /// <paramref name="recipient"/> names none.
    /// </summary>
    public static string? BroadcastTopic(string? recipient) =>
        AudienceAddress.TryParse(recipient, out bool isTopic, out string name) && isTopic ? name : null;

    /// <summary>Whether an audience row of <paramref name="channels"/> to <paramref name="recipient"/> is a live broadcast: live alone, to a topic.</summary>
    public static bool IsBroadcast(string? recipient, string? channels) =>
        channels == NotificationChannels.Live && BroadcastTopic(recipient) is not null;

    // A broadcast's recipient is its topic.
    private static string? TopicOf(string? recipient) =>
        BroadcastTopic(recipient) is null ? $"a live broadcast's recipient must be topic:<name>, not '{recipient}'" : null;
}
