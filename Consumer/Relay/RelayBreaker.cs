using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Telemetry;
using Polly;
using Polly.CircuitBreaker;
using Polly.Timeout;

namespace Notifications.Consumer.Relay;

/// <summary>
/// The relay's circuit breaker: one Polly pipeline (circuit breaker around a send timeout), built at start-up
/// from <see cref="RelayOptions"/> and shared by every handler of the process. Only relay-level failures
/// count — a transient failure, a timeout, a connection lost after the final "." — never a 5xx for one message, nor a
/// "slow down" reply to a destination with a rate limit (<see cref="SendFailedException.HandledByRateLimiter"/>).
/// </summary>
internal sealed class RelayBreaker
{
    private readonly ResiliencePipeline _pipeline;
    private readonly CircuitBreakerStateProvider _state = new();
    private readonly SemaphoreSlim _changed = new(0);
    private readonly ConsumerMetrics _metrics;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly Lock _gate = new();
    private readonly BreakerClock _clock;
    private bool _countedOpen;
    private DateTimeOffset _probeTakenUntil;

    /// <summary>The SMTP relay's breaker: the consumer stops consuming while it is open (<see cref="RelayGate"/>).</summary>
    public RelayBreaker(IOptions<RelayOptions> options, ConsumerMetrics metrics, TimeProvider time, ILogger<RelayBreaker> logger)
        : this("relay", options.Value, gated: true, metrics, time, logger)
    {
    }

    /// <summary>
    /// A breaker named <paramref name="name"/> (an endpoint's, a push provider's). An ungated one stops no consumer: while it is
    /// open the pipeline parks its messages in a delay queue, unspent, and the other destinations' messages go on.
    /// </summary>
    public RelayBreaker(string name, RelayOptions options, bool gated, ConsumerMetrics metrics, TimeProvider time, ILogger logger)
    {
        _metrics = metrics;
        _time = time;
        _logger = logger;
        _clock = new BreakerClock(time);
        Name = name;
        Gated = gated;
        Options = options;
        _pipeline = new ResiliencePipelineBuilder { TimeProvider = time, Name = name }
            .AddCircuitBreaker(new CircuitBreakerStrategyOptions
            {
                FailureRatio = Options.FailureRatio,
                MinimumThroughput = Options.MinimumThroughput,
                SamplingDuration = Options.SamplingDuration,
                BreakDuration = Options.BreakDuration,
                // A slow-down reply the rate limiter took up is its business: the relay answered (Polly counts it as a success).
                ShouldHandle = new PredicateBuilder().Handle<Exception>(ex => IsRelayFailure(ex) && ex is not SendFailedException { HandledByRateLimiter: true }),
                StateProvider = _state,
                OnOpened = args => Opened(args.Outcome.Exception),
                OnHalfOpened = _ => Changed(CircuitState.HalfOpen),
                OnClosed = _ => Closed(),
            })
            // Inside the breaker, so a send cut off by the timeout counts as a failure of the relay.
            .AddTimeout(Options.SendTimeout)
            .Build();
        metrics.BreakerChanged(name, CircuitState.Closed);
    }

    public RelayOptions Options { get; }

    /// <summary>What it guards: <c>relay</c> (SMTP), an endpoint's or a provider's name.</summary>
    public string Name { get; }

    /// <summary>Whether the consumer stops consuming while it is open (the SMTP relay's, which every email goes through).</summary>
    public bool Gated { get; }

    /// <summary>Closed, Open or HalfOpen (a probe is under way).</summary>
    public CircuitState State => _state.CircuitState;

    /// <summary>When the breaker lets the next send through as a probe (meaningful while open).</summary>
    public DateTimeOffset ProbeAt => _clock.ProbeAt;

    /// <summary>A send now would be turned away: open and not yet due for a probe, its due probe taken by another send, or a probe under way.</summary>
    public bool IsRejecting => State switch
    {
        CircuitState.HalfOpen or CircuitState.Isolated => true,
        CircuitState.Open => _time.GetUtcNow() is var now && (now < ProbeAt || now < ProbeTakenUntil),
        _ => false,
    };

    /// <summary>
    /// True when a send may go now: the breaker is closed, or open with its probe due and not yet taken, and this send takes it
    /// (for a tenth of a break: one that then does not reach the breaker leaves the probe to the next). False turns the send
    /// away, so that of the messages waiting for the probe one is sent and the others are not even looked up meanwhile.
    /// </summary>
    public bool TryPass()
    {
        var state = State;
        if (state != CircuitState.Open)
        {
            return state == CircuitState.Closed;
        }

        var now = _time.GetUtcNow();
        lock (_gate)
        {
            if (now < _clock.ProbeAt || now < _probeTakenUntil)
            {
                return false;
            }

            _probeTakenUntil = now + (Options.BreakDuration / 10);
            return true;
        }
    }

    /// <summary>
    /// How long sends will still be turned away, about: the rest of the break while it is open; a whole break while its probe
    /// is taken or under way (when a failed probe's next break ends); zero while it is closed or its probe is due.
    /// </summary>
    public TimeSpan RejectsFor => State switch
    {
        CircuitState.HalfOpen or CircuitState.Isolated => Options.BreakDuration,
        CircuitState.Open when _time.GetUtcNow() is var now && now < ProbeAt => ProbeAt - now,
        CircuitState.Open when _time.GetUtcNow() < ProbeTakenUntil => Options.BreakDuration,
        _ => TimeSpan.Zero,
    };

    private DateTimeOffset ProbeTakenUntil
    {
        get
        {
            lock (_gate)
            {
                return _probeTakenUntil;
            }
        }
    }

    /// <summary>
    /// Sends through the breaker. Throws <see cref="BrokenCircuitException"/> without sending while the breaker
    /// is open, <see cref="TimeoutRejectedException"/> when <see cref="RelayOptions.SendTimeout"/> cut the send
    /// off before the final "." (not sent), or what the sender throws.
    /// </summary>
    public Task SendAsync(IChannelSender sender, Outgoing outgoing, CancellationToken cancellationToken) =>
        _pipeline.ExecuteAsync(
            static (state, token) => new ValueTask(state.sender.SendAsync(state.outgoing, token)), (sender, outgoing), cancellationToken).AsTask();

    /// <summary>Waits until the breaker changes state or <paramref name="timeout"/> passes.</summary>
    public Task WaitForChangeAsync(TimeSpan timeout, CancellationToken cancellationToken) => _changed.WaitAsync(timeout, cancellationToken);

    /// <summary>
    /// The failures that speak about the relay rather than the message: the server could not be reached or
    /// refused the transaction for now (transient), the timeout fired, or the connection was lost after ".".
    /// </summary>
    public static bool IsRelayFailure(Exception exception) => exception switch
    {
        SendFailedException failed => failed.Kind != SendFailureKind.Permanent,
        TimeoutRejectedException => true,
        _ => false,
    };

    private ValueTask Opened(Exception? reason)
    {
        bool first = _clock.Opened(Options.BreakDuration);
        string why = reason?.Message ?? "unknown";
        if (!Gated)
        {
            // A destination's breaker (an endpoint's, a provider's): the relay's log lines and gauge are not about it.
            LogDestinationOpened(first, why);
        }
        else if (first)
        {
            _metrics.RelayBreakerOpened();
            ConsumerLog.RelayBreakerOpened(_logger, Options.FailureRatio, Options.SamplingDuration, why, Options.BreakDuration);
        }
        else
        {
            ConsumerLog.RelayProbeFailed(_logger, Options.BreakDuration, why);
        }

        return Changed(CircuitState.Open);
    }

    private ValueTask Closed()
    {
        var openFor = _clock.Closed();
        if (Gated)
        {
            ConsumerLog.RelayBreakerClosed(_logger, openFor);
        }
        else
        {
            ConsumerLog.DestinationBreakerClosed(_logger, Name, openFor);
        }

        return Changed(CircuitState.Closed);
    }

    // The number of endpoints' and providers' breakers not closed: this one counted once from open to closed.
    private void CountDestination(bool open)
    {
        lock (_gate)
        {
            if (open == _countedOpen)
            {
                return;
            }

            _countedOpen = open;
        }

        _metrics.DestinationBreakerChanged(open);
    }

    private void LogDestinationOpened(bool first, string why)
    {
        if (first)
        {
            ConsumerLog.DestinationBreakerOpened(_logger, Name, Options.FailureRatio, Options.SamplingDuration, why, Options.BreakDuration);
        }
        else
        {
            ConsumerLog.DestinationProbeFailed(_logger, Name, Options.BreakDuration, why);
        }
    }

    private ValueTask Changed(CircuitState state)
    {
        _metrics.BreakerChanged(Name, state);
        if (Gated)
        {
            _metrics.RelayBreakerState(state);
        }
        else
        {
            CountDestination(state != CircuitState.Closed);
        }

        if (_changed.CurrentCount == 0)
        {
            _changed.Release();
        }

        return ValueTask.CompletedTask;
    }
}
