using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Relay;

/// <summary>
/// The relay circuit breaker and send timeout (section <c>Relay</c>; env vars <c>Relay__BreakDuration</c> etc.).
/// One breaker per consumer process, shared by its handlers: it judges the relay, not a message.
/// </summary>
internal sealed class RelayOptions
{
    public const string SectionName = "Relay";

    /// <summary>Share of relay-level send failures within <see cref="SamplingDuration"/> that opens the breaker.</summary>
    [Range(0.01, 1.0)]
    public double FailureRatio { get; set; } = 0.5;

    /// <summary>Sends within <see cref="SamplingDuration"/> before the ratio counts (fewer never open it).</summary>
    [Range(2, 1_000_000)]
    public int MinimumThroughput { get; set; } = 10;

    /// <summary>The sliding window the failure ratio is measured over.</summary>
    [Range(typeof(TimeSpan), "00:00:00.500", "01:00:00")]
    public TimeSpan SamplingDuration { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How long the breaker stays open before one message is sent as a probe (and again after each failed probe).</summary>
    [Range(typeof(TimeSpan), "00:00:00.500", "01:00:00")]
    public TimeSpan BreakDuration { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>
    /// The longest one send may take in all (connect, handshake, transaction), on top of the SMTP client's own
    /// per-command timeouts; a send cut off by it counts as a relay failure and is not sent.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "01:00:00")]
    public TimeSpan SendTimeout { get; set; } = TimeSpan.FromMinutes(2);
}
