using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Observability;
using Notifications.Shared.Resilience;
using Polly;
using Polly.CircuitBreaker;
using Polly.Retry;

namespace Notifications.Consumer.Infrastructure;

/// <summary>
/// How the handlers wait out a failure of the consumer's database or broker (<see cref="InfrastructureFailure"/>): such a
/// failure is not the message's, so it spends no attempt and makes no dead letter. Every database read or write and every
/// broker publish of a delivery's way (the delivery log, a template or endpoint lookup, a retry, park, forward, dead letter
/// or an envelope's return) runs through one Polly pipeline per process: a retry, until the operation succeeds or the
/// handler is stopped, around a circuit breaker. The handler keeps its delivery meanwhile, unacked and unspent: on a quorum
/// queue a requeue would count toward <c>x-delivery-limit</c> (<c>QuorumDeliveryCountTests</c>). While the breaker is open the
/// consumer stops consuming (<see cref="Relay.RelayGate"/>), every waiting operation pauses until the probe is due, and the
/// first one due is let through as the probe: its success closes the breaker and the others go on; a failure opens it again.
/// </summary>
internal sealed class InfrastructureBreaker
{
    private static readonly TimeSpan FirstPause = TimeSpan.FromMilliseconds(250);
    // While a probe is under way (half-open) the others look again this often.
    private static readonly TimeSpan ProbeUnderWayPause = TimeSpan.FromMilliseconds(250);
    private readonly ResiliencePipeline _pipeline;
    private readonly CircuitBreakerStateProvider _state = new();
    private readonly InfrastructureOptions _options;
    private readonly ConsumerMetrics _metrics;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly BreakerClock _clock;

    public InfrastructureBreaker(IOptions<InfrastructureOptions> options, ConsumerMetrics metrics, TimeProvider time, ILogger<InfrastructureBreaker> logger)
        : this(options, metrics, time, (ILogger)logger)
    {
    }

    internal InfrastructureBreaker(IOptions<InfrastructureOptions> options, ConsumerMetrics metrics, TimeProvider time, ILogger logger)
    {
        _options = options.Value;
        _metrics = metrics;
        _time = time;
        _logger = logger;
        _clock = new BreakerClock(time);
        var retry = RetryUntilStopped.Options(FirstPause, _options.BreakDuration, jitter: true,
            ex => ex is BrokenCircuitException || InfrastructureFailure.Is(ex), OnRetryAsync);
        var backoff = retry.DelayGenerator!;
        // While the breaker is open every operation pauses until its probe is due (the first one then is the probe), not for a
        // backoff of its own; while a probe is under way, briefly.
        retry.DelayGenerator = args => State switch
        {
            CircuitState.Closed when args.Outcome.Exception is not BrokenCircuitException => backoff(args),
            CircuitState.Open => ValueTask.FromResult<TimeSpan?>(UntilProbe()),
            _ => ValueTask.FromResult<TimeSpan?>(ProbeUnderWayPause),
        };
        _pipeline = new ResiliencePipelineBuilder { Name = "infrastructure", TimeProvider = time }
            .AddRetry(retry)
            .AddCircuitBreaker(new CircuitBreakerStrategyOptions
            {
                FailureRatio = _options.FailureRatio,
                MinimumThroughput = _options.MinimumThroughput,
                SamplingDuration = _options.SamplingDuration,
                BreakDuration = _options.BreakDuration,
                ShouldHandle = new PredicateBuilder().Handle<Exception>(InfrastructureFailure.Is),
                StateProvider = _state,
                OnOpened = args => Opened(args.Outcome.Exception),
                OnHalfOpened = _ => Changed(CircuitState.HalfOpen),
                OnClosed = _ => Closed(),
            })
            .Build();
        _metrics.BreakerChanged("infrastructure", CircuitState.Closed);
    }

    /// <summary>Closed, Open or HalfOpen (a probe is under way). The consumer consumes only while it is closed.</summary>
    public CircuitState State => _state.CircuitState;

    /// <summary>
    /// Runs <paramref name="operation"/> until it completes without a database or broker failure; pauses between tries (longer
    /// while the breaker is open). Any other exception, or <paramref name="cancellationToken"/> cancelled, ends it.
    /// </summary>
    public Task RunAsync(Func<CancellationToken, Task> operation, CancellationToken cancellationToken) =>
        _pipeline.ExecuteAsync(static async (op, token) => await op(token), operation, cancellationToken).AsTask();

    /// <inheritdoc cref="RunAsync(Func{CancellationToken, Task}, CancellationToken)"/>
    public Task<T> RunAsync<T>(Func<CancellationToken, Task<T>> operation, CancellationToken cancellationToken) =>
        _pipeline.ExecuteAsync(static async (op, token) => await op(token), operation, cancellationToken).AsTask();

    private TimeSpan UntilProbe()
    {
        var wait = _clock.ProbeAt - _time.GetUtcNow();
        return wait > TimeSpan.Zero ? wait : ProbeUnderWayPause;
    }

    private ValueTask OnRetryAsync(OnRetryArguments<object> args)
    {
        var failure = args.Outcome.Exception!;
        if (failure is BrokenCircuitException)
        {
            return ValueTask.CompletedTask;
        }

        // The first failure of an operation is worth a line; its later ones, and the open breaker's, are the breaker's to tell.
        if (args.AttemptNumber == 0 && State == CircuitState.Closed)
        {
            ConsumerLog.InfrastructureFailed(_logger, ConnectionFailure.Describe(failure), args.RetryDelay);
        }
        else
        {
            ConsumerLog.InfrastructureStillFailing(_logger, args.AttemptNumber + 1, ConnectionFailure.Describe(failure), args.RetryDelay);
        }

        return ValueTask.CompletedTask;
    }

    private ValueTask Opened(Exception? reason)
    {
        bool first = _clock.Opened(_options.BreakDuration);
        string why = reason is null ? "unknown" : ConnectionFailure.Describe(reason);
        if (first)
        {
            _metrics.InfrastructureBreakerOpened();
            ConsumerLog.InfrastructureBreakerOpened(_logger, _options.FailureRatio, _options.SamplingDuration, why, _options.BreakDuration);
        }
        else
        {
            ConsumerLog.InfrastructureProbeFailed(_logger, _options.BreakDuration, why);
        }

        return Changed(CircuitState.Open);
    }

    private ValueTask Closed()
    {
        ConsumerLog.InfrastructureBreakerClosed(_logger, _clock.Closed());
        return Changed(CircuitState.Closed);
    }

    private ValueTask Changed(CircuitState state)
    {
        _metrics.InfrastructureBreakerState(state);
        _metrics.BreakerChanged("infrastructure", state);
        return ValueTask.CompletedTask;
    }
}
