using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Infrastructure;

/// <summary>
/// The infrastructure breaker (section <c>Infrastructure</c>; env vars <c>Infrastructure__BreakDuration</c> etc.): what makes
/// the consumer stop consuming while its database or broker fails, and how often it then tries again. One per consumer
/// process, shared by its handlers (<see cref="InfrastructureBreaker"/>).
/// </summary>
internal sealed class InfrastructureOptions
{
    public const string SectionName = "Infrastructure";

    /// <summary>Share of failed database and broker operations within <see cref="SamplingDuration"/> that opens the breaker.</summary>
    [Range(0.01, 1.0)]
    public double FailureRatio { get; set; } = 0.5;

    /// <summary>Operations within <see cref="SamplingDuration"/> before the ratio counts (fewer never open it).</summary>
    [Range(2, 1_000_000)]
    public int MinimumThroughput { get; set; } = 5;

    /// <summary>The sliding window the failure ratio is measured over.</summary>
    [Range(typeof(TimeSpan), "00:00:00.500", "01:00:00")]
    public TimeSpan SamplingDuration { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How long the breaker stays open before one waiting operation is tried again as a probe (and again after each failed
    /// probe); also the longest pause between two tries of one operation while the breaker is closed.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.500", "01:00:00")]
    public TimeSpan BreakDuration { get; set; } = TimeSpan.FromSeconds(5);
}
