using System.Diagnostics;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability;
using Notifications.Shared.Observability.Hops;
using Polly.CircuitBreaker;

namespace Notifications.Consumer.Telemetry;

/// <summary>
/// The consumer's instruments (meter <c>Notifications.Consumer</c>), exported on <c>/metrics</c>, and <see cref="Hops"/>, their
/// in-process aggregation for the report and the progress log. Per delivered notification the hot path records four
/// histograms (send, log write, ack delay, end to end), per received message one (queue wait), with at most the lane tag.
/// </summary>
internal sealed class ConsumerMetrics : IDisposable
{
    public const string MeterName = "Notifications.Consumer";

    /// <summary>The consumer's hops, as <see cref="HopRecorder"/> reports them; end to end is also kept per window.</summary>
    public static readonly HopDefinition[] HopDefinitions =
    [
        new("notifications.queue.wait", "queue_wait", LatencyBuckets.EndToEnd),
        new("notifications.smtp.send.duration", "send", LatencyBuckets.Hop),
        new("notifications.delivery_log.write.duration", "log_write", LatencyBuckets.Hop),
        new("notifications.ack.delay", "ack", LatencyBuckets.Hop),
        new("notifications.delivery.latency", "end_to_end", LatencyBuckets.EndToEnd, Windowed: true),
    ];

    private readonly Counter<long> _delivered;
    private readonly Counter<long> _duplicates;
    private readonly Counter<long> _retried;
    private readonly Counter<long> _deadLettered;
    private readonly Counter<long> _unknown;
    private readonly Counter<long> _sendFailed;
    private readonly Counter<long> _relayRejected;
    private readonly Counter<long> _destinationRejected;
    private readonly Counter<long> _relayOpened;
    private readonly Counter<long> _infrastructureOpened;
    private readonly Counter<long> _idleReconnects;
    private readonly UpDownCounter<long> _inFlight;
    private readonly Histogram<double> _queueWait;
    private readonly Histogram<double> _sendDuration;
    private readonly Histogram<double> _logWrite;
    private readonly Histogram<double> _ackDelay;
    private readonly Histogram<double> _latency;
    private readonly TimeProvider _time;
    private readonly BreakerBoard? _breakers;
    private long _inFlightCount;
    private int _relayState;
    private int _destinationsOpen;
    private int _infrastructureState;

    public ConsumerMetrics(IMeterFactory meters, TimeProvider time, IOptions<ConsumerOptions>? options = null, BreakerBoard? breakers = null)
    {
        _time = time;
        _breakers = breakers;
        var meter = meters.Create(MeterName);
        _delivered = meter.CreateCounter<long>("notifications.delivered", "{notification}", "Notifications the SMTP server accepted");
        _duplicates = meter.CreateCounter<long>("notifications.duplicates", "{message}", "Copies skipped because the delivery log had the id already");
        _retried = meter.CreateCounter<long>("notifications.retried", "{message}", "Messages sent to a delay queue after a transient failure");
        _deadLettered = meter.CreateCounter<long>("notifications.dead_lettered", "{message}", "Messages moved to the dead-letter queue");
        _unknown = meter.CreateCounter<long>("notifications.outcome_unknown", "{message}", "At most once: connection lost after the final '.', not sent again");
        _sendFailed = meter.CreateCounter<long>("notifications.send.failed", "{send}", "SMTP sends that failed, by kind (transient, permanent, unknown)");
        _relayRejected = meter.CreateCounter<long>("notifications.relay.breaker.rejected", "{message}",
            "Sends the open SMTP relay breaker turned away; each message went back to the work queue without spending an attempt");
        _destinationRejected = meter.CreateCounter<long>("notifications.destination.breaker.rejected", "{message}",
            "Sends an open webhook endpoint's or push provider's breaker turned away; each message went back without spending an attempt");
        meter.CreateObservableGauge("notifications.destination.breakers.open", () => Volatile.Read(ref _destinationsOpen), "{breaker}",
            "Webhook endpoints' and push providers' breakers not closed right now (open, or half-open with a probe under way)");
        _relayOpened = meter.CreateCounter<long>("notifications.relay.breaker.opened", "{event}", "Times the relay breaker opened after being closed");
        _infrastructureOpened = meter.CreateCounter<long>("notifications.infrastructure.breaker.opened", "{event}",
            "Times the infrastructure breaker (the consumer's database or broker failing) opened after being closed");
        meter.CreateObservableGauge("notifications.infrastructure.breaker.state", () => Volatile.Read(ref _infrastructureState), "{state}",
            "Infrastructure circuit breaker: 0 closed (consuming), 1 half-open (a probe under way), 2 open (not consuming; deliveries in hand wait)");
        _idleReconnects = meter.CreateCounter<long>("notifications.smtp.idle_reconnects", "{connection}",
            "Idle SMTP connections found closed by the server (failed NOOP) and reopened: expected, not an error");
        meter.CreateObservableGauge("notifications.relay.breaker.state", () => Volatile.Read(ref _relayState), "{state}",
            "Relay circuit breaker: 0 closed (consuming), 1 half-open (a probe send under way), 2 open (not consuming)");
        _inFlight = meter.CreateUpDownCounter<long>("notifications.in_flight", "{message}", "Deliveries being handled right now");
        _queueWait = Histogram(meter, 0, "Producer's publish (header x-published-at) to received here; first attempts only, clocks of two hosts");
        _sendDuration = Histogram(meter, 1, "Time of one SMTP send (MAIL FROM to the reply to '.')");
        _logWrite = Histogram(meter, 2, "Recording a send in the delivery log (waiting for its batched statement included)");
        _ackDelay = Histogram(meter, 3, "Handler done to its ack written (an envelope item: until the envelope's last item is done and the envelope acked)");
        _latency = Histogram(meter, 4, "Outbox insert (created_at) to SMTP accepted, delivery logged and acked");
        // Every series exported from the start, at zero: one that first appears at 1 hides that increase from rate().
        Array.ForEach([_delivered, _duplicates, _retried, _deadLettered, _unknown, _relayRejected, _destinationRejected, _relayOpened, _infrastructureOpened],
            counter => counter.Add(0));
        Array.ForEach([SendFailureKind.Transient, SendFailureKind.Permanent, SendFailureKind.Unknown], kind => _sendFailed.Add(0, Kind(kind)));
        _inFlight.Add(0);
        Hops = new HopRecorder(meters, MeterName, HopDefinitions, options?.Value.LatencyWarmup ?? TimeSpan.Zero, time);
    }

    /// <summary>This process's hop histograms, aggregated (the report's and the progress log's source).</summary>
    public HopRecorder Hops { get; }

    public long InFlight => Interlocked.Read(ref _inFlightCount);

    /// <summary>A message received: its queue wait, if the producer stamped it and this is its first attempt.</summary>
    public void Received(IDictionary<string, object?>? headers, int attempt, KeyValuePair<string, object?> lane)
    {
        if (attempt == 1 && PublishedAtHeader.TryRead(headers, out long published))
        {
            _queueWait.Record(Math.Max(0, _time.GetUtcNow().ToUnixTimeMilliseconds() - published) / 1000.0, lane);
        }
    }

    /// <summary>A notification delivered (sent, logged, acked): its end-to-end latency and, if timed, its log write and ack delay.</summary>
    public void Delivered(TimeSpan latency, in DeliveryTimings timings = default)
    {
        _delivered.Add(1);
        if (timings.Lane.Key is null)
        {
            _latency.Record(Math.Max(0, latency.TotalSeconds));
            return;
        }

        _latency.Record(Math.Max(0, latency.TotalSeconds), timings.Lane);
        _logWrite.Record(Stopwatch.GetElapsedTime(timings.LogStarted, timings.AckStarted).TotalSeconds, timings.Lane);
        _ackDelay.Record(Stopwatch.GetElapsedTime(timings.AckStarted).TotalSeconds, timings.Lane);
    }

    public void Duplicate() => _duplicates.Add(1);

    public void Retried() => _retried.Add(1);

    public void DeadLettered() => _deadLettered.Add(1);

    public void Unknown() => _unknown.Add(1);

    /// <summary>The breaker's state as the gauge reports it: 0 closed, 1 half-open, 2 open.</summary>
    public int RelayState => Volatile.Read(ref _relayState);

    public void RelayBreakerState(CircuitState state) => Volatile.Write(ref _relayState, Gauge(state));

    /// <summary>The infrastructure breaker's state as its gauge reports it: 0 closed, 1 half-open, 2 open.</summary>
    public int InfrastructureState => Volatile.Read(ref _infrastructureState);

    public void InfrastructureBreakerState(CircuitState state) => Volatile.Write(ref _infrastructureState, Gauge(state));

    /// <summary>A breaker was built or changed state: what the operations endpoint's <c>/breakers</c> serves (<see cref="BreakerBoard"/>).</summary>
    public void BreakerChanged(string name, CircuitState state) => _breakers?.Report(name, state switch
    {
        CircuitState.Closed => "closed",
        CircuitState.HalfOpen => "half-open",
        CircuitState.Open => "open",
        _ => "isolated",
    });

    public void InfrastructureBreakerOpened() => _infrastructureOpened.Add(1);

    public void RelayBreakerOpened() => _relayOpened.Add(1);

    public void SmtpIdleReconnected() => _idleReconnects.Add(1);

    /// <summary>A send an open breaker turned away: the relay's (<paramref name="relay"/>), or an endpoint's or provider's.</summary>
    public void HeldBack(bool relay) => (relay ? _relayRejected : _destinationRejected).Add(1);

    /// <summary>Endpoints' and providers' breakers not closed right now.</summary>
    public int DestinationBreakersOpen => Volatile.Read(ref _destinationsOpen);

    /// <summary>An endpoint's or provider's breaker left the closed state (<paramref name="open"/>) or came back to it.</summary>
    public void DestinationBreakerChanged(bool open) => Interlocked.Add(ref _destinationsOpen, open ? 1 : -1);

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

    public void Dispose() => Hops.Dispose();

    private static Histogram<double> Histogram(Meter meter, int hop, string description) =>
        meter.CreateHistogram(HopDefinitions[hop].Instrument, "s", description,
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = HopDefinitions[hop].Bounds });

    private static int Gauge(CircuitState state) => state switch
    {
        CircuitState.Closed => 0,
        CircuitState.HalfOpen => 1,
        _ => 2,
    };

    private static KeyValuePair<string, object?> Kind(SendFailureKind kind) => new("kind", kind switch
    {
        SendFailureKind.Transient => "transient",
        SendFailureKind.Permanent => "permanent",
        _ => "unknown",
    });
}
