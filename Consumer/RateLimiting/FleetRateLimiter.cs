using System.Collections.Concurrent;
using System.Threading.RateLimiting;
using Microsoft.Extensions.Logging;
using Notifications.Shared.Resilience;
using Polly;

namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// The fleet-wide limiter: for each limit (the relay, a domain) a <see cref="SlotSchedule"/> fed by leases from
/// the database's GCRA row, so any number of consumer processes together send at the configured rate and the
/// database sees one round trip per lease, not per message. While the database cannot be reached a waiter
/// waits (and tries again with a capped backoff, <see cref="LeaseRetry"/>); nothing is sent unlimited.
/// </summary>
internal sealed partial class FleetRateLimiter : IDisposable
{
    private static readonly TimeSpan FirstBackoff = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(5);
    internal static readonly ResiliencePropertyKey<string> LimitKey = new("notifications.rate-limit.key");
    internal static readonly ResiliencePropertyKey<int> FailedTries = new("notifications.rate-limit.failed-tries");
    // Slow-down replies of many handlers at once count as one reduction per this long (also in the database).
    private static readonly TimeSpan Settle = TimeSpan.FromSeconds(1);
    private readonly ConcurrentDictionary<string, SlotSchedule> _schedules = new(StringComparer.Ordinal);
    private readonly ConcurrentDictionary<string, SemaphoreSlim> _windowGates = new(StringComparer.Ordinal);
    private readonly PartitionedRateLimiter<string> _slowDownReports;
    private readonly IRateLimitStore _store;
    private readonly RateLimitOptions _options;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly ResiliencePipeline _leaseRetry;

    // How long a send let into a window counts as in flight when its end is never recorded (its process died).
    private readonly TimeSpan _endsWithin;
    private readonly WindowEnds _windowEnds;

    // sendTimeout: the longest a send lasts (Relay:SendTimeout); a send let into a window whose end is never recorded counts as
    // in flight until this and a second more after it was let in.
    public FleetRateLimiter(
        IRateLimitStore store, RateLimitSettings settings, TimeProvider time, ILogger<FleetRateLimiter> logger, TimeSpan? sendTimeout = null)
    {
        _store = store;
        _endsWithin = (sendTimeout ?? new Relay.RelayOptions().SendTimeout) + TimeSpan.FromSeconds(1);
        _windowEnds = new WindowEnds(store, _endsWithin, logger);
        _options = settings.Options;
        _time = time;
        _logger = logger;
        _leaseRetry = LeaseRetry(time, logger);
        // One slow-down report per limit and Settle from this process; the database merges the fleet's reports.
        _slowDownReports = PartitionedRateLimiter.Create<string, string>(key => RateLimitPartition.GetFixedWindowLimiter(key,
            _ => new FixedWindowRateLimiterOptions { PermitLimit = 1, Window = Settle, QueueLimit = 0, AutoReplenishment = true }));
    }

    /// <summary>Returns when this process may make one send under the limit <paramref name="key"/> at <paramref name="rate"/>.</summary>
    public Task WaitAsync(string key, Rate rate, CancellationToken cancellationToken) => TakeAsync(key, rate, hold: false, cancellationToken);

    /// <summary>
    /// A rate-limit lane letting a message in: returns when the next slot of <paramref name="key"/> is due, and holds that
    /// slot for the message's send (<see cref="SpendAsync"/>).
    /// </summary>
    public Task HoldAsync(string key, Rate rate, CancellationToken cancellationToken) => TakeAsync(key, rate, hold: true, cancellationToken);

    /// <summary>Takes and holds a slot of <paramref name="key"/> this process already holds and that is due now; false when it would have to wait.</summary>
    public bool TryHoldDue(string key) => _schedules.TryGetValue(key, out var schedule) && schedule.TryTakeDue();

    /// <summary>
    /// Right before a send under the limit <paramref name="key"/>: spends a slot held for it while still fresh (at most a
    /// lease's span past its moment); else takes a new one and returns when it is due.
    /// </summary>
    public Task SpendAsync(string key, Rate rate, CancellationToken cancellationToken) =>
        _schedules.TryGetValue(key, out var schedule) && schedule.TrySpendHeld() ? Task.CompletedTask : WaitAsync(key, rate, cancellationToken);

    /// <summary>
    /// After the slot of <paramref name="key"/> (<see cref="WaitAsync"/>, <see cref="SpendAsync"/>): returns when the fleet's send
    /// window of the limit lets one more send in — fewer than <see cref="WindowSize"/> sends in flight or ended within the last second —
    /// with the send's entry, to be ended by <see cref="LeaveWindow"/> when the server answered. Null (at once) for a rate
    /// above <see cref="RateLimitOptions.SendWindowUpTo"/>. While the database cannot be reached it waits, as for a lease.
    /// </summary>
    public async Task<long?> EnterWindowAsync(string key, Rate rate, CancellationToken cancellationToken)
    {
        if (rate.PerSecond > _options.SendWindowUpTo)
        {
            return null;
        }

        int size = WindowSize(
            _schedules.TryGetValue(key, out var schedule) && schedule.Interval > TimeSpan.Zero ? schedule.Interval : rate.Interval, _options.SlotTolerance);
        while (true)
        {
            // One of this process's handlers at a time asks the database: the others wait here, not holding a pooled connection
            // while they queue for the window's lock there.
            var gate = _windowGates.GetOrAdd(key, static _ => new SemaphoreSlim(1, 1));
            await gate.WaitAsync(cancellationToken);
            WindowEntry entry;
            try
            {
                entry = await UntilAnsweredAsync(key,
                    static (ctx, state) => new ValueTask<WindowEntry>(state.Store.EnterWindowAsync(state.Key, state.Size, state.EndsWithin, ctx.CancellationToken)),
                    (Store: _store, Key: key, Size: size, EndsWithin: _endsWithin),
                    cancellationToken);
            }
            finally
            {
                gate.Release();
            }

            if (entry.Id is { } id)
            {
                return id;
            }

            await Task.Delay(entry.Wait, _time, cancellationToken);
        }
    }

    /// <summary>
    /// The send of window entry <paramref name="id"/> ended (sent or failed): it leaves the window a second after its end is
    /// recorded, which <see cref="WindowEnds"/> does off the caller's path. Never throws.
    /// </summary>
    public void LeaveWindow(long id) => _windowEnds.Add(id);

    /// <summary>
    /// How many sends the window holds at <paramref name="interval"/> apart: the rate × (1 s + <paramref name="tolerance"/>), rounded
    /// up, at least 1 — the bound the slots keep for the sends' starts (<see cref="SlotSchedule"/>), now wherever the receiver
    /// sees them. A send counts from its start to a second after its end, so the window lets the rate through while the sends
    /// take up to the tolerance; longer sends (a saturated relay) slow the domain down rather than bunch.
    /// </summary>
    internal static int WindowSize(TimeSpan interval, TimeSpan tolerance) =>
        (int)Math.Clamp(Math.Ceiling(((TimeSpan.FromSeconds(1) + tolerance) / interval) - 1e-9), 1, 1_000_000);

    /// <summary>
    /// The destination behind <paramref name="key"/> answered "slow down": its rate goes down for the whole fleet for
    /// <see cref="RateLimitOptions.SlowDownFor"/>. Never throws but for cancellation: a failed report is logged.
    /// </summary>
    public async Task SlowDownAsync(string key, string reply, CancellationToken cancellationToken)
    {
        using var permit = _slowDownReports.AttemptAcquire(key);
        if (!permit.IsAcquired)
        {
            return;
        }

        try
        {
            double factor = await _store.SlowDownAsync(key, _options.SlowDownFactor, _options.MaxSlowDown, Settle, _options.SlowDownFor, cancellationToken);
            LogSlowedDown(_logger, key, factor, _options.SlowDownFor, reply);
        }
        catch (Exception ex) when (ex is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            LogSlowDownFailed(_logger, key, ex);
        }
    }

    public void Dispose()
    {
        // The ends handed over are recorded first (a few seconds at most): otherwise they count until the send timeout.
        _windowEnds.DisposeAsync().AsTask().GetAwaiter().GetResult();
        _slowDownReports.Dispose();
        foreach (var schedule in _schedules.Values)
        {
            schedule.Dispose();
        }

        foreach (var gate in _windowGates.Values)
        {
            gate.Dispose();
        }
    }

    private async Task TakeAsync(string key, Rate rate, bool hold, CancellationToken cancellationToken)
    {
        var schedule = _schedules.GetOrAdd(key, _ => new SlotSchedule(_time, _options.SlotTolerance));
        var wait = await schedule.TakeAsync(token => LeaseAsync(key, rate, token), cancellationToken, hold);
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait, _time, cancellationToken);
        }
    }

    /// <summary>How many slots one round trip leases: <see cref="RateLimitOptions.LeaseDuration"/> of the rate, 1 to 1000.</summary>
    internal static int LeaseSize(Rate rate, TimeSpan leaseDuration) =>
        (int)Math.Clamp(Math.Round(leaseDuration / rate.Interval), 1, 1000);

    private async Task<Lease> LeaseAsync(string key, Rate rate, CancellationToken cancellationToken)
    {
        int count = LeaseSize(rate, _options.LeaseDuration);
        // Grace of the slot tolerance: the next lease of a busy process arrives a round trip after the last slot; that
        // moment is not lost. After a longer idle time at most the tolerance's worth goes out at once.
        return await UntilAnsweredAsync(key,
            static (ctx, state) => new ValueTask<Lease>(state.Store.LeaseAsync(
                state.Key, state.Count, state.Rate.Interval, state.Grace, ctx.CancellationToken)),
            (Store: _store, Key: key, Count: count, Rate: rate, Grace: _options.SlotTolerance),
            cancellationToken);
    }

    // One statement of the limit key (a lease, a window's entry) through the lease retry: asked again until the database
    // answers, its first failure logged (4112) and, once it answers, the failed tries (4113).
    private async Task<T> UntilAnsweredAsync<TState, T>(
        string key, Func<ResilienceContext, TState, ValueTask<T>> statement, TState state, CancellationToken cancellationToken)
    {
        var context = ResilienceContextPool.Shared.Get(cancellationToken);
        try
        {
            context.Properties.Set(LimitKey, key);
            var answer = await _leaseRetry.ExecuteAsync(statement, context, state);
            if (context.Properties.TryGetValue(FailedTries, out int failures))
            {
                LogLeaseRecovered(_logger, key, failures);
            }

            return answer;
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    /// <summary>
    /// A lease the database did not give is asked for again until it answers or the waiter gives up: after 100 ms,
    /// doubling up to 5 s. The first failure of a wait is logged (4112); its tries so far are counted for the recovery's line.
    /// </summary>
    internal static ResiliencePipeline LeaseRetry(TimeProvider time, ILogger logger) =>
        RetryUntilStopped.Build("rate-limit-lease", time, RetryUntilStopped.Options(
            FirstBackoff,
            MaxBackoff,
            jitter: false,
            handles: static _ => true,
            onRetry: args =>
            {
                if (args.AttemptNumber == 0)
                {
                    LogLeaseFailed(logger, args.Context.Properties.GetValue(LimitKey, string.Empty), args.Outcome.Exception!);
                }

                args.Context.Properties.Set(FailedTries, args.AttemptNumber + 1);
                return ValueTask.CompletedTask;
            }));

    [LoggerMessage(EventId = 4110, Level = LogLevel.Warning, Message = "Rate limit {Key} slowed down: interval × {Factor} for {HoldFor} after \"{Reply}\"")]
    private static partial void LogSlowedDown(ILogger logger, string key, double factor, TimeSpan holdFor, string reply);

    [LoggerMessage(EventId = 4111, Level = LogLevel.Warning, Message = "Rate limit {Key}: could not record a slow-down in the database")]
    private static partial void LogSlowDownFailed(ILogger logger, string key, Exception exception);

    [LoggerMessage(EventId = 4112, Level = LogLevel.Warning, Message = "Rate limit {Key}: no lease from the database; sends under this limit wait until it answers")]
    private static partial void LogLeaseFailed(ILogger logger, string key, Exception exception);

    [LoggerMessage(EventId = 4113, Level = LogLevel.Information, Message = "Rate limit {Key}: leases again after {Failures} failed tries")]
    private static partial void LogLeaseRecovered(ILogger logger, string key, int failures);
}
