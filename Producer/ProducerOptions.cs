using System.ComponentModel.DataAnnotations;

namespace Notifications.Producer;

/// <summary>The producer loop. Section <c>Producer</c>; env vars <c>Producer__BatchSize</c> etc.</summary>
public sealed class ProducerOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Producer";

    /// <summary>Rows claimed, published and committed together (also the bound on unconfirmed publishes).</summary>
    [Range(1, 50_000)]
    public int BatchSize { get; set; } = 1000;

    /// <summary>Pause after a batch that was not full: the outbox is nearly drained.</summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:01:00")]
    public TimeSpan PartialBatchDelay { get; set; } = TimeSpan.FromMilliseconds(5);

    /// <summary>
    /// How long after a lane last claimed rows an empty claim is still followed by only <see cref="PartialBatchDelay"/>: a
    /// steady flow's gaps are short, and the first empty claim amid one must not hold the next row for <see cref="IdleDelay"/>.
    /// Past it the pause backs off from <see cref="IdleDelay"/>. Zero: back off at the first empty claim.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:00:10")]
    public TimeSpan FlowWindow { get; set; } = TimeSpan.FromMilliseconds(50);

    /// <summary>First pause after an empty claim past <see cref="FlowWindow"/>; it doubles while the outbox stays empty.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:01:00")]
    public TimeSpan IdleDelay { get; set; } = TimeSpan.FromMilliseconds(10);

    /// <summary>The longest pause between claims of an empty outbox.</summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:10:00")]
    public TimeSpan MaxIdleDelay { get; set; } = TimeSpan.FromMilliseconds(250);

    /// <summary>How long a batch may wait for all of its publisher confirms before it is rolled back.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan PublishTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The longest pause after a failed batch (the pause doubles from one second up to it).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:10:00")]
    public TimeSpan MaxErrorBackoff { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Rows the urgent lane claims at a time. The urgent lane is a second claim loop in the same process
    /// that takes only <c>priority = 'urgent'</c> rows, so an urgent row never waits behind a bulk batch's
    /// publisher confirms.
    /// </summary>
    [Range(1, 50_000)]
    public int UrgentBatchSize { get; set; } = 100;

    /// <summary>
    /// The urgent lane's first pause after an empty claim; it doubles while the lane stays empty, up to
    /// <see cref="UrgentMaxPollInterval"/>, and is back at this after any urgent row is claimed.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:01:00")]
    public TimeSpan UrgentPollInterval { get; set; } = TimeSpan.FromMilliseconds(25);

    /// <summary>
    /// The urgent lane's longest pause while no urgent row waits: bounds the wait of an urgent row before its
    /// claim. Each look is a transaction of two indexed probes of an empty range, about 1 ms of CPU between
    /// the producer and the database: a fixed 25 ms poll in each of two producers cost 12 % of the
    /// pipeline's throughput on 2 cores (README, Benchmarks), 100 ms about a quarter of that.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:01:00")]
    public TimeSpan UrgentMaxPollInterval { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>
    /// On PostgreSQL, a dedicated connection LISTENs for the NOTIFY of db/postgres/019's trigger and wakes the urgent
    /// lane as soon as an urgent row is committed, instead of at its next poll. Ignored on SQL Server (no
    /// LISTEN/NOTIFY there: the urgent lane polls). Off: the urgent lane polls on PostgreSQL too.
    /// </summary>
    public bool ListenForUrgent { get; set; } = true;

    /// <summary>
    /// The urgent lane's longest pause while the listener (<see cref="ListenForUrgent"/>) is connected and the
    /// trigger is in place: the poll is then only a safety net, and for urgent rows scheduled with a not_before
    /// (their insert wakes no one when they fall due). While the listener is not connected the lane polls at
    /// <see cref="UrgentMaxPollInterval"/> again.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.001", "00:10:00")]
    public TimeSpan UrgentMaxPollIntervalListening { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// Notifications per AMQP message: up to this many rows of a claim, bound for the same queue, travel as one
    /// envelope (a JSON array of single-notification bodies, AMQP type <c>notification-envelope.v1</c>), so the
    /// broker's per-message work is paid once for all of them. 1 publishes every row as its own
    /// <c>notification.v1</c> message. Consumers of every version since envelopes read both; a consumer's
    /// prefetch counts messages, so it holds up to prefetch x this many notifications.
    /// </summary>
    [Range(1, 10_000)]
    public int EnvelopeSize { get; set; } = 50;

    /// <summary>
    /// The standard lane claims no more while about this many notifications (ready messages x
    /// <see cref="EnvelopeSize"/>) wait in the work queue: the backlog stays in the outbox, where urgent rows
    /// still overtake it and the broker holds only what the consumers will take soon. 0 = no bound (the
    /// producers move the whole outbox into the broker as fast as they can).
    /// </summary>
    [Range(0, int.MaxValue)]
    public int MaxQueued { get; set; } = 50_000;

    /// <summary>When set, a JSON report of this process's totals is written here on exit (read by the benchmark harness).</summary>
    public string? StatsFile { get; set; }

    /// <summary>
    /// A serialized message larger than this is not published but moved to the <c>rejected</c> table:
    /// the broker would refuse it and the batch would fail forever. RabbitMQ's own limit is
    /// <c>max_message_size</c> (128 MiB in 3.x, 16 MiB in 4.x).
    /// </summary>
    [Range(1024, 512 * 1024 * 1024)]
    public int MaxMessageBytes { get; set; } = 16 * 1024 * 1024;
}
