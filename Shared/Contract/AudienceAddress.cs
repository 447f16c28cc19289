namespace Notifications.Shared.Contract;

/// <summary>
/// An audience row's recipient (docs/fan-out.md): <c>subscriber:&lt;the app's user id&gt;</c> or <c>topic:&lt;name&gt;</c>, and
/// the channels its deliveries may use (<c>email</c>, <c>push</c>, <c>live</c> and their sets, or <c>live&gt;push</c>: live, then
/// push where no app acked the live delivery in time; docs/fan-out.md, docs/live.md). The outbox's checks
/// (<c>outbox_audience_recipient</c>, <c>outbox_audience_channels</c>) hold the same. Compiled into the client package too.
/// </summary>
internal static class AudienceAddress
{
    /// <summary>The outbox's <c>channel</c> of a row for an audience: the fan-out stage, not a consumer, reads it.</summary>
    public const string Channel = "audience";

    /// <summary>The recipient's prefix of a subscriber.</summary>
    public const string SubscriberPrefix = "subscriber:";

    /// <summary>The recipient's prefix of a topic.</summary>
    public const string TopicPrefix = "topic:";

    /// <summary>Live, then push (a <c>channels</c> element): the push deliveries wait for the live one's ack, and go without it.</summary>
    public const string LiveThenPush = "live>push";

    /// <summary>The <c>channels</c> values the outbox takes, in their one spelling.</summary>
    public static readonly IReadOnlyList<string> ChannelSets =
        ["email", "push", "email,push", "live", "email,live", "push,live", "email,push,live", LiveThenPush, "email," + LiveThenPush];

    /// <summary>The recipient naming the subscriber <paramref name="id"/>, or why not.</summary>
    public static string? Subscriber(string? id, out string recipient)
    {
        recipient = SubscriberPrefix + id;
        return AudienceRules.SubscriberId(id);
    }

    /// <summary>The recipient naming the topic <paramref name="name"/>, or why not.</summary>
    public static string? Topic(string? name, out string recipient)
    {
        recipient = TopicPrefix + name;
        return AudienceRules.TopicName(name);
    }

    /// <summary>Splits a recipient into whether it is a topic and its key; false when it is neither shape.</summary>
    public static bool TryParse(string? recipient, out bool isTopic, out string key)
    {
        isTopic = recipient?.StartsWith(TopicPrefix, StringComparison.Ordinal) == true;
        bool isSubscriber = recipient?.StartsWith(SubscriberPrefix, StringComparison.Ordinal) == true;
        key = isTopic ? recipient![TopicPrefix.Length..] : isSubscriber ? recipient![SubscriberPrefix.Length..] : "";
        return isTopic ? AudienceRules.TopicName(key) is null : isSubscriber && AudienceRules.SubscriberId(key) is null;
    }

    /// <summary>The channels of a <c>channels</c> value (<c>email,push</c>: both; <c>live&gt;push</c>: live and push).</summary>
    public static string[] ChannelsOf(string channels) => channels.Split(',', '>');

    /// <summary>The channels of a <c>channels</c> value that are contact points in the registry (email, push): not live.</summary>
    public static string[] ContactChannelsOf(string channels) => [.. ChannelsOf(channels).Where(c => c != AudienceRules.Live)];

    /// <summary>Whether a <c>channels</c> value has a live delivery per subscriber.</summary>
    public static bool HasLive(string channels) => ChannelsOf(channels).Contains(AudienceRules.Live);

    /// <summary>Whether a <c>channels</c> value's push deliveries wait for the live one's ack (<see cref="LiveThenPush"/>).</summary>
    public static bool PushWaitsForLive(string channels) => channels.EndsWith(LiveThenPush, StringComparison.Ordinal);
}
