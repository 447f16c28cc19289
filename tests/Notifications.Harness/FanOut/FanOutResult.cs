namespace Notifications.Harness.FanOut;

/// <summary>
/// One fan-out run: a topic row (<see cref="Kind"/> <c>topic</c>: the milestones after its commit) or a steady flow of rows to
/// single subscribers (<c>single</c>: insert to last device percentiles). Received, duplicates and lost are counted per
/// notification and device at the receiver (email: messages at the sink, which names none: see <see cref="Duplicates"/>).
/// </summary>
internal sealed record FanOutResult
{
    public required string Kind { get; init; }

    public required string Channel { get; init; }

    public required int Subscribers { get; init; }

    public required int DevicesPerSubscriber { get; init; }

    public required int? PageSize { get; init; }

    public required int Producers { get; init; }

    public required int Consumers { get; init; }

    public required int Handlers { get; init; }

    /// <summary>Notifications inserted: 1 for a topic.</summary>
    public required long Inserted { get; init; }

    /// <summary>Deliveries expected: every device of every notification inserted.</summary>
    public required long Expected { get; init; }

    /// <summary>The producers' count of deliveries published (<c>fanout_job.published</c>, all jobs).</summary>
    public required long Published { get; init; }

    /// <summary>Distinct deliveries (notification and device) the receiver accepted; email: messages the sink received.</summary>
    public required long Received { get; init; }

    /// <summary>Accepted again after the first; email: the sink's messages beyond the distinct ids sent in the delivery log.</summary>
    public required long Duplicates { get; init; }

    public long Lost => Math.Max(0, Expected - Received);

    /// <summary>The receiver refused a request (a bad token or payload: the sender's defect); push only.</summary>
    public required long Refused { get; init; }

    /// <summary>Topic: seconds from the insert's commit to 50 %, 90 %, 100 % of the expected devices (null: not reached).</summary>
    public double? Seconds50 { get; init; }

    public double? Seconds90 { get; init; }

    public double? Seconds100 { get; init; }

    /// <summary>Topic: seconds from the commit to the job's row (the claim) and to its end (the last page confirmed).</summary>
    public double? ClaimedAfterSeconds { get; init; }

    public double? LastPageAfterSeconds { get; init; }

    /// <summary>Devices received a minute, commit to the last arrival (topic) or over the flow (single).</summary>
    public required double RatePerMinute { get; init; }

    /// <summary>Single: the offered rate and insert -> last device, over the notifications all of whose devices arrived.</summary>
    public int? OfferedRate { get; init; }

    public int? Incomplete { get; init; }

    public double? LastDeviceP50Ms { get; init; }

    public double? LastDeviceP99Ms { get; init; }

    public double? LastDeviceMaxMs { get; init; }

    /// <summary>CPU of each kind of process from the insert to the last arrival, per device received.</summary>
    public required CpuSplit Cpu { get; init; }

    /// <summary>Peak resident memory (VmHWM) of each worker process, MiB, by name (<c>producer-0</c>, <c>consumer-0</c>).</summary>
    public required IReadOnlyDictionary<string, double> PeakRssMib { get; init; }

    public required double WallSeconds { get; init; }

    public required double LoadBefore { get; init; }

    public required double LoadAfter { get; init; }
}
