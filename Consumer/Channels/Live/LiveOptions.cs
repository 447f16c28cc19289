using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Channels.Live;

/// <summary>The live channel (section <c>Live</c>; docs/live.md).</summary>
internal sealed class LiveOptions
{
    public const string SectionName = "Live";

    /// <summary>
    /// How long a live notification without an expiry of its own stays pending for its subscriber's apps (from its row's
    /// creation); a row's <c>expires_at</c> wins.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "30.00:00:00")]
    public TimeSpan PendingFor { get; set; } = TimeSpan.FromDays(1);

    /// <summary>
    /// The most unexpired live notifications a subscriber may have pending (apps that never ack): past it, the oldest expire
    /// (not sent again; logged).
    /// </summary>
    [Range(1, 1_000_000)]
    public int MaxPendingPerSubscriber { get; set; } = 1_000;

    /// <summary>
    /// Live, then push: how long a live delivery may stay unacked before its push copies go (from when the consumer wrote it).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "01:00:00")]
    public TimeSpan PushAfter { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Live, then push: how long a push copy waits for its live delivery to be handled at all (from the row's creation); after
    /// that it goes whatever became of the live one.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "1.00:00:00")]
    public TimeSpan WaitForLive { get; set; } = TimeSpan.FromMinutes(1);
}
