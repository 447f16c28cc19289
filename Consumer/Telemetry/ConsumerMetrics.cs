using System.Diagnostics.Metrics;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels;
using Notifications.Shared.Observability;
using Polly.CircuitBreaker;

namespace Notifications.Consumer.Telemetry;

/// <summary>The consumer's instruments (meter <c>Notifications.Consumer</c>), exported on <c>/metrics</c>.</summary>
internal sealed class ConsumerMetrics
{
    public const string MeterName = "Notifications.Consumer";

    // Seconds. SMTP sends: a millisecond on loopback to tens of seconds at a slow server.
    private static readonly double[] SendBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

    // Seconds. End to end: the SLO's 1 s and 120 s are bucket bounds, so Prometheus can compute them exactly too.
    private static readonly double[] LatencyBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

    private readonly Counter<long> _delivered;
    private readonly Counter<long> _duplicates;
    private readonly Counter<long> _retried;
    private readonly Counter<long> _deadLettered;
    private readonly Counter<long> _unknown;
    private readonly Counter<long> _sendFailed;
    private readonly Counter<long> _relayRejected;
    private readonly Counter<long> _relayOpened;
    private readonly Counter<long> _idleReconnects;
    private readonly UpDownCounter<long> _inFlight;
    private readonly Histogram<double> _sendDuration;
    private readonly Histogram<double> _latency;
    private readonly TimeProvider _time;
    private long _inFlightCount;
    private int _relayState;

    public ConsumerMetrics(IMeterFactory meters, IOptions<OperationsOptions> options, TimeProvider time)
    {
        _time = time;
        Slo = new SloWindow(options.Value.SloWindow);
        var meter = meters.Create(MeterName);
        _delivered = meter.CreateCounter<long>("notifications.delivered", "{notification}", "Notifications the SMTP server accepted");
        _duplicates = meter.CreateCounter<long>("notifications.duplicates", "{message}", "Copies skipped because the delivery log had the id already");
        _retried = meter.CreateCounter<long>("notifications.retried", "{message}", "Messages sent to a delay queue after a transient failure");
        _deadLettered = meter.CreateCounter<long>("notifications.dead_lettered", "{message}", "Messages moved to the dead-letter queue");
        _unknown = meter.CreateCounter<long>("notifications.outcome_unknown", "{message}", "At most once: connection lost after the final '.', not sent again");
        _sendFailed = meter.CreateCounter<long>("notifications.send.failed", "{send}", "SMTP sends that failed, by kind (transient, permanent, unknown)");
        _relayRejected = meter.CreateCounter<long>("notifications.relay.breaker.rejected", "{message}",
            "Sends the open relay breaker turned away; each message went back to the work queue without spending an attempt");
        _relayOpened = meter.CreateCounter<long>("notifications.relay.breaker.opened", "{event}", "Times the relay breaker opened after being closed");
        _idleReconnects = meter.CreateCounter<long>("notifications.smtp.idle_reconnects", "{connection}",
            "Idle SMTP connections found closed by the server (failed NOOP) and reopened: expected, not an error");
        meter.CreateObservableGauge("notifications.relay.breaker.state", () => Volatile.Read(ref _relayState), "{state}",
            "Relay circuit breaker: 0 closed (consuming), 1 half-open (a probe send under way), 2 open (not consuming)");
        _inFlight = meter.CreateUpDownCounter<long>("notifications.in_flight", "{message}", "Deliveries being handled right now");
        _sendDuration = meter.CreateHistogram("notifications.smtp.send.duration", "s", "Time of one SMTP send (MAIL FROM to the reply to '.')",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = SendBuckets });
        _latency = meter.CreateHistogram("notifications.delivery.latency", "s", "Outbox insert (created_at) to SMTP accepted",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = LatencyBuckets });
        // Every series exported from the start, at zero: one that first appears at 1 hides that increase from rate().
        Array.ForEach([_delivered, _duplicates, _retried, _deadLettered, _unknown, _relayRejected, _relayOpened], counter => counter.Add(0));
        Array.ForEach([SendFailureKind.Transient, SendFailureKind.Permanent, SendFailureKind.Unknown], kind => _sendFailed.Add(0, Kind(kind)));
        _inFlight.Add(0);
        meter.CreateObservableGauge("notifications.delivery.slo.within_2m_ratio", () => Slo.Snapshot(_time.GetUtcNow()).SloRatio, "1",
            "Share of the notifications delivered in the last Metrics:SloWindow that took at most 2 minutes from insert (NaN: none delivered)");
        meter.CreateObservableGauge("notifications.delivery.slo.within_1s_ratio", () => Slo.Snapshot(_time.GetUtcNow()).FastRatio, "1",
            "Share of the notifications delivered in the last Metrics:SloWindow that took at most 1 second from insert (NaN: none delivered)");
        meter.CreateObservableGauge("notifications.delivery.slo.window_delivered", () => Slo.Snapshot(_time.GetUtcNow()).Delivered, "{notification}",
            "Notifications delivered in the last Metrics:SloWindow (the SLO ratios' denominator)");
    }

    public SloWindow Slo { get; }

    public long InFlight => Interlocked.Read(ref _inFlightCount);

    public void Delivered(TimeSpan latency, DateTimeOffset now)
    {
        _delivered.Add(1);
        _latency.Record(Math.Max(0, latency.TotalSeconds));
        Slo.Record(latency, now);
    }

    public void Duplicate() => _duplicates.Add(1);

    public void Retried() => _retried.Add(1);

    public void DeadLettered() => _deadLettered.Add(1);

    public void Unknown() => _unknown.Add(1);

    /// <summary>The breaker's state as the gauge reports it: 0 closed, 1 half-open, 2 open.</summary>
    public int RelayState => Volatile.Read(ref _relayState);

    public void RelayBreakerState(CircuitState state) => Volatile.Write(ref _relayState, state switch
    {
        CircuitState.Closed => 0,
        CircuitState.HalfOpen => 1,
        _ => 2,
    });

    public void RelayBreakerOpened() => _relayOpened.Add(1);

    public void SmtpIdleReconnected() => _idleReconnects.Add(1);

    public void RelayRejected() => _relayRejected.Add(1);

    public void SendSucceeded(TimeSpan duration) => _sendDuration.Record(duration.TotalSeconds);

    public void SendFailed(SendFailureKind kind, TimeSpan duration)
    {
        _sendDuration.Record(duration.TotalSeconds);
        _sendFailed.Add(1, Kind(kind));
    }

    public void HandlingStarted()
    {
        Interlocked.Increment(ref _inFlightCount);
        _inFlight.Add(1);
    }

    public void HandlingEnded()
    {
        Interlocked.Decrement(ref _inFlightCount);
        _inFlight.Add(-1);
    }

    private static KeyValuePair<string, object?> Kind(SendFailureKind kind) => new("kind", kind switch
    {
        SendFailureKind.Transient => "transient",
        SendFailureKind.Permanent => "permanent",
        _ => "unknown",
    });
}
