using System.ComponentModel.DataAnnotations;
using Notifications.Consumer.Pipeline;

namespace Notifications.Consumer;

/// <summary>Which <see cref="Channels.Email.IEmailSender"/> handlers use.</summary>
internal enum SenderKind
{
    /// <summary>Real SMTP (section <c>Smtp</c>).</summary>
    Smtp,

    /// <summary>A fixed delay instead of a send, as the original experiment measured.</summary>
    Simulated,
}

/// <summary>The consumer worker. Section <c>Consumer</c>; env vars <c>Consumer__Handlers</c> etc.</summary>
internal sealed class ConsumerOptions
{
    public const string SectionName = "Consumer";

    /// <summary>
    /// The lanes this process consumes: both (the default), or one, so that urgent deliveries get consumer processes of their
    /// own (<c>Urgent</c>) — processes whose threads no bulk backlog keeps busy — and the others consume the rest (<c>Standard</c>).
    /// </summary>
    public ConsumerLanes Lanes { get; set; } = ConsumerLanes.Standard | ConsumerLanes.Urgent;

    /// <summary>At-least-once (send, log, ack) or at-most-once (mark and ack, then send).</summary>
    public DeliveryMode DeliveryMode { get; set; } = DeliveryMode.AtLeastOnce;

    /// <summary>Concurrent handlers in this process, each with its own SMTP connection.</summary>
    [Range(1, 4096)]
    public int Handlers { get; set; } = 32;

    /// <summary>
    /// A handler's sent deliveries still waiting for their delivery-log write and ack, at most, while it takes its next
    /// deliveries. 1: a handler waits for each one's log write and ack before it takes the next.
    /// </summary>
    [Range(1, 1024)]
    public int SettlingPerHandler { get; set; } = 8;

    /// <summary>AMQP channels consuming the work queue; each has its own prefetch window.</summary>
    [Range(1, 64)]
    public int Channels { get; set; } = 1;

    /// <summary>Unacknowledged messages the broker may push to each channel (basic.qos prefetch count).</summary>
    [Range(1, 65535)]
    public int Prefetch { get; set; } = 256;

    /// <summary>
    /// Handlers (SMTP connections) of the urgent lane, on top of <see cref="Handlers"/>: they take only
    /// deliveries from the urgent queue, which a bulk backlog's prefetched messages cannot occupy.
    /// </summary>
    [Range(1, 1024)]
    public int UrgentHandlers { get; set; } = 16;

    /// <summary>The prefetch window of the urgent lane's one channel.</summary>
    [Range(1, 65535)]
    public int UrgentPrefetch { get; set; } = 32;

    /// <summary>The most ids one delivery-log statement carries.</summary>
    [Range(1, 10_000)]
    public int LogBatchSize { get; set; } = 500;

    /// <summary>Real SMTP or the simulated delay.</summary>
    public SenderKind Sender { get; set; } = SenderKind.Smtp;

    /// <summary>The simulated send's duration.</summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:01:00")]
    public TimeSpan SimulatedSendDelay { get; set; } = TimeSpan.FromMilliseconds(10);

    /// <summary>
    /// The killswitch of the one-minute experiment: when set, the process stops itself this long after
    /// its first delivery, and the totals at that instant are reported as the window's.
    /// </summary>
    public TimeSpan? RunFor { get; set; }

    /// <summary>
    /// Latencies of deliveries this soon after the first one are left out of the latency percentiles
    /// (not of the counts): the steady-state figure without the cold start (JIT, SMTP connects).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:10:00")]
    public TimeSpan LatencyWarmup { get; set; } = TimeSpan.Zero;

    /// <summary>When set, a JSON report of this process's totals and latency percentiles is written here on exit.</summary>
    public string? StatsFile { get; set; }

    /// <summary>
    /// On shutdown, how long in-flight handlers may take to finish before they are cancelled.
    /// Keep it below the orchestrator's grace period (docker-stack.yml: stop_grace_period).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:10:00")]
    public TimeSpan ShutdownTimeout { get; set; } = TimeSpan.FromSeconds(20);
}
