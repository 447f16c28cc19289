using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.Harness;

/// <summary>One measured run: the original experiment's columns plus latency, memory and cross-checks.</summary>
internal sealed record RunResult
{
    public string Kind { get; init; } = "run";

    public string Label { get; init; } = "";

    public string Sender { get; init; } = "";

    /// <summary>The rows' channel: <c>email</c>, <c>webhook</c> or <c>push</c>.</summary>
    public string Channel { get; init; } = "email";

    public string DeliveryMode { get; init; } = "";

    public int Producers { get; init; }

    public int Consumers { get; init; }

    public int Handlers { get; init; }

    public int Prefetch { get; init; }

    public int Batch { get; init; }

    /// <summary>Notifications per AMQP message the producers were given (Producer:EnvelopeSize).</summary>
    public int Envelope { get; init; }

    public int Rows { get; init; }

    /// <summary>Messages the producers published (and committed) while they ran.</summary>
    public long Produced { get; init; }

    /// <summary>Deliveries inside the consumers' killswitch windows, all consumers together.</summary>
    public long Consumed { get; init; }

    public double WindowSeconds { get; init; }

    public double RatePerMinute => WindowSeconds <= 0 ? 0 : Consumed * 60.0 / WindowSeconds;

    /// <summary>Every delivery, in and after the window (the in-flight ones finished at shutdown).</summary>
    public long DeliveredTotal { get; init; }

    /// <summary>
    /// Messages counted by smtp-sink itself (-c); for webhook and push, the distinct ids the receiver accepted; null for the
    /// simulated sender.
    /// </summary>
    public long? SinkReceived { get; init; }

    /// <summary>The webhook or push receiver's counts at the end (requests, accepted, distinct, duplicates, refused); null for email.</summary>
    public ReceiptCounts? Receipts { get; init; }

    /// <summary>Notifications the delivery log has as sent that the receiver never accepted (webhook, push); null for email.</summary>
    public long? Lost => Receipts is null ? null : Math.Max(0, LogSent - (SinkReceived ?? 0));

    /// <summary>Rows with status 'sent' in the delivery log at the end.</summary>
    public long LogSent { get; init; }

    public double WallSeconds { get; init; }

    public double WorkerCpuSeconds { get; init; }

    public double DbBrokerCpuSeconds { get; init; }

    public double SinkCpuSeconds { get; init; }

    /// <summary>CPU by process, and per notification delivered in the same window; null for older result files.</summary>
    public CpuSplit? Cpu { get; init; }

    public double WorkerCores => WallSeconds <= 0 ? 0 : WorkerCpuSeconds / WallSeconds;

    public double DbBrokerCores => WallSeconds <= 0 ? 0 : DbBrokerCpuSeconds / WallSeconds;

    /// <summary>Notifications per CPU-second of the whole pipeline (workers, DB, broker, sink).</summary>
    public double PerCpuSecond
    {
        get
        {
            double cores = WallSeconds <= 0 ? 0 : (WorkerCpuSeconds + DbBrokerCpuSeconds + SinkCpuSeconds) / WallSeconds;
            return cores <= 0 || WindowSeconds <= 0 ? 0 : Consumed / WindowSeconds / cores;
        }
    }

    public double LatencyP50Ms { get; init; }

    public double LatencyP95Ms { get; init; }

    public double LatencyP99Ms { get; init; }

    public double LatencyMaxMs { get; init; }

    public double PeakRssMib { get; init; }

    /// <summary>Seconds from the producers' start until 90 % of the seeded rows were delivered, if that happened.</summary>
    public double? TimeTo90PercentSeconds { get; init; }

    /// <summary>/proc/loadavg's 1-minute figure at the end of the window: other work on the shared 2 cores.</summary>
    public double LoadAverage { get; init; }

    /// <summary>Offered rate of a latency run (per second), else 0.</summary>
    public int OfferedRate { get; init; }

    /// <summary>Latency per hop and lane, the workers' histograms merged (docs/latency-hops.md); null for older result files.</summary>
    public IReadOnlyList<HopRow>? Hops { get; init; }

    /// <summary>End-to-end latency per 5-second window; null for older result files and runs that keep none.</summary>
    public IReadOnlyList<WindowRow>? Windows { get; init; }
}
