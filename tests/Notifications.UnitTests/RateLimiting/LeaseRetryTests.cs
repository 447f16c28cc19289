using Microsoft.Extensions.Logging;
using Notifications.Consumer.RateLimiting;
using Notifications.UnitTests.Resilience;
using Npgsql;
using Polly;

namespace Notifications.UnitTests.RateLimiting;

/// <summary>The rate limiter's Polly retry of a lease: 100 ms doubling to 5 s, the first failure of a wait logged, tries counted.</summary>
public sealed class LeaseRetryTests
{
    [Fact]
    public async Task LeaseRetry_DatabaseDown_PausesDoubleToFiveSecondsLogsTheFirstFailureOnceAndCountsTheTries()
    {
        var time = new TimerRecordingTime();
        var logger = new RecordingLogger();
        var retry = FleetRateLimiter.LeaseRetry(time, logger);
        var context = ResilienceContextPool.Shared.Get(CancellationToken.None);
        context.Properties.Set(FleetRateLimiter.LimitKey, "domain:example.org");
        int calls = 0;

        var lease = retry.ExecuteAsync(
            (_, _) => ++calls <= 9 ? throw new NpgsqlException("database down") : ValueTask.FromResult(calls), context, 0).AsTask();
        var pauses = await time.FireAsync(9);

        Assert.Equal(10, await lease);
        Assert.Equal([100, 200, 400, 800, 1600, 3200, 5000, 5000, 5000], pauses.Select(p => p.TotalMilliseconds));
        var record = Assert.Single(logger.Records);
        Assert.Equal((LogLevel.Warning, 4112), (record.Level, record.EventId));
        Assert.Equal("domain:example.org", record.Values["Key"]);
        Assert.IsType<NpgsqlException>(record.Exception);
        Assert.True(context.Properties.TryGetValue(FleetRateLimiter.FailedTries, out int failures));
        Assert.Equal(9, failures);
        ResilienceContextPool.Shared.Return(context);
    }

    [Fact]
    public async Task LeaseRetry_WaiterGivesUpDuringAPause_StopsAtOnce()
    {
        var time = new TimerRecordingTime();
        var retry = FleetRateLimiter.LeaseRetry(time, new RecordingLogger());
        using var stop = new CancellationTokenSource();
        int calls = 0;

        var lease = retry.ExecuteAsync<int>(_ => { calls++; throw new NpgsqlException("database down"); }, stop.Token).AsTask();
        await time.NextTimerAsync();
        await stop.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => lease);
        Assert.Equal(1, calls);
        Assert.True(time.NoNewTimer);
    }

    [Fact]
    public async Task LeaseRetry_FirstTrySucceeds_NothingLoggedNoTriesCounted()
    {
        var time = new TimerRecordingTime();
        var logger = new RecordingLogger();
        var retry = FleetRateLimiter.LeaseRetry(time, logger);
        var context = ResilienceContextPool.Shared.Get(CancellationToken.None);

        int lease = await retry.ExecuteAsync((_, _) => ValueTask.FromResult(7), context, 0);

        Assert.Equal(7, lease);
        Assert.Empty(logger.Records);
        Assert.False(context.Properties.TryGetValue(FleetRateLimiter.FailedTries, out int _));
        ResilienceContextPool.Shared.Return(context);
    }
}
