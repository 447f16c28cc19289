using System.ComponentModel.DataAnnotations;

namespace Notifications.Gateway;

/// <summary>
/// The live channel's per-subscriber cap (section <c>Live</c>, the key the consumers read too; docs/live.md): the gateway
/// applies it to a subscriber's broadcasts to topics, which have no row per subscriber for the consumer to cap.
/// </summary>
internal sealed class LiveCapOptions
{
    public const string SectionName = "Live";

    /// <summary>
    /// The most unexpired live notifications a subscriber may have pending (apps that never ack): of its topics' broadcasts it
    /// has not acked, the newest this many are sent on connect; the older ones expire for it (not sent again; logged).
    /// </summary>
    [Range(1, 1_000_000)]
    public int MaxPendingPerSubscriber { get; set; } = 1_000;
}
