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
}
