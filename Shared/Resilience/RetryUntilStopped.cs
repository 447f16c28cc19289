using Polly;
using Polly.Retry;

namespace Notifications.Shared.Resilience;

/// <summary>
/// Polly retry for work a worker tries again until it succeeds or stops: the pause after the first failure is
/// <c>first</c>, it doubles after each further failure up to <c>max</c>, optionally jittered to 80-120 % so workers that
/// failed together do not all try again together. The worker stopping ends the pause at once and nothing more is tried.
/// Build the pipeline once and execute it per call: the attempt count (and so the pause) starts anew at each execution.
/// </summary>
public static class RetryUntilStopped
{
    /// <summary>The pipeline of <see cref="Options"/>, on <paramref name="time"/>.</summary>
    public static ResiliencePipeline Build(string name, TimeProvider time, RetryStrategyOptions options) =>
        new ResiliencePipelineBuilder { Name = name, TimeProvider = time }.AddRetry(options).Build();

    /// <summary>
    /// Retries every exception <paramref name="handles"/> accepts, while the execution's token is not cancelled;
    /// <paramref name="onRetry"/> runs after each failure, before its pause (Polly's attempt numbers start at 0).
    /// </summary>
    public static RetryStrategyOptions Options(
        TimeSpan first, TimeSpan max, bool jitter, Func<Exception, bool> handles, Func<OnRetryArguments<object>, ValueTask> onRetry) => new()
    {
        MaxRetryAttempts = int.MaxValue,
        BackoffType = DelayBackoffType.Exponential,
        Delay = first,
        MaxDelay = max,
        UseJitter = false,
        ShouldHandle = args => ValueTask.FromResult(
            args.Outcome.Exception is { } ex && !args.Context.CancellationToken.IsCancellationRequested && handles(ex)),
        // Polly's own jitter for exponential backoff is decorrelated (a different spread): ours stays 80-120 % of the doubling.
        DelayGenerator = jitter
            ? args => ValueTask.FromResult<TimeSpan?>(Jittered(Delay(first, max, args.AttemptNumber), Random.Shared.NextDouble()))
            : null,
        OnRetry = onRetry,
    };

    /// <summary>The pause before try <paramref name="attemptNumber"/> + 2 without jitter: first × 2^attemptNumber, at most max.</summary>
    public static TimeSpan Delay(TimeSpan first, TimeSpan max, int attemptNumber)
    {
        double ticks = first.Ticks * Math.Pow(2, Math.Min(attemptNumber, 62));
        return ticks >= max.Ticks ? max : TimeSpan.FromTicks((long)ticks);
    }

    /// <summary><paramref name="delay"/> × 0.8 to 1.2, as <paramref name="random"/> goes from 0 to 1.</summary>
    public static TimeSpan Jittered(TimeSpan delay, double random) => delay * (0.8 + (random * 0.4));
}
