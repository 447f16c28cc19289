using Notifications.Shared.Data;
using Notifications.Shared.Observability.Hops;

namespace Notifications.Producer;

/// <summary>
/// One claim loop of the producer: which priorities it claims (in order), how many at a time, and how it
/// waits while the outbox has none of them. A process runs the standard lane (normal, then bulk) and the
/// urgent lane side by side, each on its own AMQP channel.
/// </summary>
/// <param name="Name">For logs: <c>standard</c> or <c>urgent</c>.</param>
/// <param name="Priorities">The priorities claimed, in order.</param>
/// <param name="BatchSize">Rows per claim.</param>
/// <param name="IdleDelay">The first pause after an empty claim.</param>
/// <param name="MaxIdleDelay">The longest pause (it doubles up to this while empty).</param>
/// <param name="Bounded">Whether the work queue's depth holds this lane back (<see cref="ProducerOptions.MaxQueued"/>, <see cref="WorkQueueDepth"/>).</param>
/// <param name="Wake">What ends a pause early (the urgent lane on PostgreSQL), or null for a plain delay.</param>
/// <param name="ListeningMaxIdleDelay">The longest pause while <paramref name="Wake"/> listens.</param>
internal sealed record ProducerLane(
    string Name, IReadOnlyList<NotificationPriority> Priorities, int BatchSize, TimeSpan IdleDelay, TimeSpan MaxIdleDelay, bool Bounded = false,
    UrgentWake? Wake = null, TimeSpan ListeningMaxIdleDelay = default)
{
    /// <summary>The longest pause now: longer while a listener wakes the lane, the poll then being only a safety net.</summary>
    public TimeSpan LongestPause =>
        Wake is { IsListening: true } && ListeningMaxIdleDelay > MaxIdleDelay ? ListeningMaxIdleDelay : MaxIdleDelay;

    /// <summary>The <c>lane</c> tag of its hop histograms.</summary>
    public KeyValuePair<string, object?> Tag { get; } = HopTags.For(Name);

    public static ProducerLane Standard(ProducerOptions options) =>
        new("standard", OutboxLanes.Standard, options.BatchSize, options.IdleDelay, options.MaxIdleDelay, Bounded: true);

    public static ProducerLane Urgent(ProducerOptions options, UrgentWake wake) =>
        new("urgent", OutboxLanes.Urgent, options.UrgentBatchSize, options.UrgentPollInterval,
            options.UrgentMaxPollInterval > options.UrgentPollInterval ? options.UrgentMaxPollInterval : options.UrgentPollInterval,
            Wake: wake, ListeningMaxIdleDelay: options.UrgentMaxPollIntervalListening);

    /// <summary>Waits <paramref name="pause"/>, or less if the lane is woken.</summary>
    public Task PauseAsync(TimeSpan pause, CancellationToken cancellationToken) =>
        Wake is null ? Task.Delay(pause, cancellationToken) : Wake.WaitAsync(pause, cancellationToken);
}
