using System.Text.Json;
using System.Text.Json.Nodes;
using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>
/// Notifications for people, not addresses (<see cref="ToSubscriber"/>, <see cref="ToTopic"/>): the producer's fan-out stage
/// sends one delivery to each live contact point of the channels given, each under its own id, the subscribers'
/// preferences for the <see cref="Category"/> applied (docs/fan-out.md).
/// </summary>
public sealed partial record NewNotification
{
    /// <summary>
    /// The channels of a notification for a subscriber or a topic (<c>email</c>, <c>push</c>, <c>live</c>, a set of them such as
    /// <c>email,push</c>, or <c>live&gt;push</c>); null otherwise.
    /// </summary>
    public string? Channels { get; private init; }

    /// <summary>
    /// A notification for the subscriber the app knows as <paramref name="subscriberId"/>
    /// (<see cref="ISubscriberRegistry.UpsertSubscriberAsync"/>): every live email address and push device of
    /// <paramref name="channels"/> gets it, an email with <paramref name="subject"/> and the plain-text
    /// <paramref name="body"/>, a push notification with them as title and text and <paramref name="pushData"/>; with
    /// <see cref="AudienceChannels.Live"/>, the subscriber's running apps get it as well (the same title, text and data). A subscriber
    /// unknown at send time is recorded (<c>no_such_audience</c>); one without a contact point of those channels, <c>no_contact</c>.
    /// </summary>
    /// <exception cref="ArgumentException">The id has the wrong shape, no channel is given, or the content is one a channel would refuse.</exception>
    public static NewNotification ToSubscriber(
        string subscriberId, string subject, string body, AudienceChannels channels, IReadOnlyDictionary<string, string>? pushData = null) =>
        ToAudience(AudienceAddress.Subscriber(subscriberId, out string recipient), nameof(subscriberId), recipient, subject, body, channels, pushData);

    /// <summary>
    /// A notification for every subscriber of <paramref name="topic"/> (<see cref="ISubscriberRegistry.SubscribeAsync"/>), as
    /// <see cref="ToSubscriber"/> for each. The topic is read page by page when it is sent, so a topic of a million costs the
    /// app this one row. A topic unknown at send time is recorded (<c>no_such_audience</c>); an empty one completes with none.
    /// </summary>
    /// <exception cref="ArgumentException">The name has the wrong shape, no channel is given, or the content is one a channel would refuse.</exception>
    public static NewNotification ToTopic(
        string topic, string subject, string body, AudienceChannels channels, IReadOnlyDictionary<string, string>? pushData = null) =>
        ToAudience(AudienceAddress.Topic(topic, out string recipient), nameof(topic), recipient, subject, body, channels, pushData);

    /// <summary>
    /// A templated email for the subscriber the app knows as <paramref name="subscriberId"/>: every live email address of the
    /// subscriber gets the template <paramref name="templateName"/> rendered with <paramref name="data"/> by the consumer
    /// (<see cref="FromTemplate(string, string, JsonObject, string?)"/>), in <paramref name="locale"/> when given, else in the
    /// subscriber's own locale (<see cref="Subscriber.Locale"/>). A template renders email only: its channels are email.
    /// </summary>
    /// <exception cref="ArgumentException">The id has the wrong shape, or the name or locale is empty or too long.</exception>
    public static NewNotification ToSubscriberFromTemplate(string subscriberId, string templateName, JsonObject data, string? locale = null) =>
        AudienceTemplated(AudienceAddress.Subscriber(subscriberId, out string recipient), nameof(subscriberId), recipient, templateName, data, locale);

    /// <summary>
    /// As <see cref="ToSubscriberFromTemplate"/> for every subscriber of <paramref name="topic"/>: each rendered in the
    /// subscriber's own locale unless <paramref name="locale"/> names one for all.
    /// </summary>
    /// <exception cref="ArgumentException">The name has the wrong shape, or the template's name or locale is empty or too long.</exception>
    public static NewNotification ToTopicFromTemplate(string topic, string templateName, JsonObject data, string? locale = null) =>
        AudienceTemplated(AudienceAddress.Topic(topic, out string recipient), nameof(topic), recipient, templateName, data, locale);

    private static NewNotification AudienceTemplated(
        string? shapeError, string parameter, string recipient, string templateName, JsonObject data, string? locale)
    {
        Check(shapeError, parameter);
        return FromTemplate(recipient, templateName, data, locale) with { Channel = AudienceAddress.Channel, Channels = "email" };
    }

    private static NewNotification ToAudience(
        string? shapeError, string parameter, string recipient, string subject, string body, AudienceChannels channels,
        IReadOnlyDictionary<string, string>? pushData)
    {
        ArgumentNullException.ThrowIfNull(subject);
        ArgumentNullException.ThrowIfNull(body);
        Check(shapeError, parameter);
        var known = AudienceChannels.Email | AudienceChannels.Push | AudienceChannels.Live | AudienceChannels.LiveThenPush;
        if (channels == 0 || (channels & ~known) != 0
            || (channels.HasFlag(AudienceChannels.LiveThenPush) && (channels & (AudienceChannels.Push | AudienceChannels.Live)) != 0))
        {
            throw new ArgumentException(
                $"The channels must be Email, Push, Live or a set of them, or LiveThenPush (with Email or alone), not {channels}.", nameof(channels));
        }

        string? dataJson = pushData is null ? null : JsonSerializer.Serialize(pushData, ChannelJsonContext.Default.IReadOnlyDictionaryStringString);
        if (channels.HasFlag(AudienceChannels.Email))
        {
            Check(EmailRules.Subject(subject) is { } error ? $"Subject refused, {error}." : null, nameof(subject));
            Check(EmailRules.Body(body) is { } bodyError ? $"Body refused, {bodyError}." : null, nameof(body));
        }

        if ((channels & (AudienceChannels.Push | AudienceChannels.Live | AudienceChannels.LiveThenPush)) != 0)
        {
            // Live takes push's content rules: a live delivery may fall back to push.
            Check(ChannelRules.PushContent(subject.Length == 0 ? null : subject, body.Length == 0 ? null : body, dataJson), nameof(pushData));
        }
        else if (pushData is not null)
        {
            throw new ArgumentException("Push data is for the push and live channels: add AudienceChannels.Push or Live, or leave it null.", nameof(pushData));
        }

        string column = string.Join(',', new[]
        {
            channels.HasFlag(AudienceChannels.Email) ? "email" : null,
            channels.HasFlag(AudienceChannels.Push) ? "push" : null,
            channels.HasFlag(AudienceChannels.Live) ? "live" : null,
            channels.HasFlag(AudienceChannels.LiveThenPush) ? AudienceAddress.LiveThenPush : null,
        }.OfType<string>());
        return new NewNotification(recipient, subject, body) { Channel = AudienceAddress.Channel, Channels = column, Data = dataJson };
    }
}
