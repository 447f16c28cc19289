using Notifications.Producer;
using Notifications.Shared.Resilience;
using Notifications.UnitTests.Resilience;
using Npgsql;
using Polly;

namespace Notifications.UnitTests.Producer;

/// <summary>The producer's Polly retry of a failed batch: a second doubling to the cap, each pause 80-120 %, until shutdown.</summary>
public sealed class BatchRetryTests
{
    private static readonly TimeSpan Cap = TimeSpan.FromSeconds(8);
    private readonly TimerRecordingTime _time = new();
    private readonly List<int> _failures = [];
    private readonly ResiliencePipeline _retry;

    public BatchRetryTests() => _retry = OutboxPublisherService.BatchRetry(Cap, _time, args =>
    {
        _failures.Add(args.AttemptNumber);
        return ValueTask.CompletedTask;
    });

    [Fact]
    public async Task BatchRetry_FailingBatches_JitteredPausesDoubleFromASecondUpToTheCap()
    {
        int calls = 0;

        var batch = _retry.ExecuteAsync(_ => ++calls <= 12 ? throw new NpgsqlException("database down") : ValueTask.FromResult(1000), CancellationToken.None).AsTask();
        var pauses = await _time.FireAsync(12);

        Assert.Equal(1000, await batch);
        Assert.Equal(Enumerable.Range(0, 12), _failures);
        for (int i = 0; i < pauses.Count; i++)
        {
            var nominal = TimeSpan.FromSeconds(Math.Min(Math.Pow(2, i), Cap.TotalSeconds));
            Assert.Equal(nominal, RetryUntilStopped.Delay(TimeSpan.FromSeconds(1), Cap, i));
            Assert.InRange(pauses[i], nominal * 0.8, nominal * 1.2);
        }

        Assert.True(pauses.Distinct().Count() > 1, "jittered pauses differ");
    }

    [Fact]
    public async Task BatchRetry_SuccessAfterFailures_NextExecutionStartsAgainAtASecond()
    {
        int calls = 0;
        var first = _retry.ExecuteAsync(_ => ++calls <= 4 ? throw new IOException("broker gone") : ValueTask.FromResult(0), CancellationToken.None).AsTask();
        await _time.FireAsync(4);
        await first;

        calls = 0;
        var second = _retry.ExecuteAsync(_ => ++calls <= 1 ? throw new IOException("broker gone") : ValueTask.FromResult(0), CancellationToken.None).AsTask();
        var pause = await _time.FireNextAsync();
        await second;

        Assert.InRange(pause, TimeSpan.FromSeconds(0.8), TimeSpan.FromSeconds(1.2));
    }

    [Fact]
    public async Task BatchRetry_ShutdownDuringAPause_StopsAtOnceWithoutAnotherBatch()
    {
        using var stop = new CancellationTokenSource();
        int calls = 0;

        var batch = _retry.ExecuteAsync<int>(_ => { calls++; throw new NpgsqlException("database down"); }, stop.Token).AsTask();
        await _time.FireNextAsync();
        await _time.NextTimerAsync();
        await stop.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => batch);
        Assert.Equal((2, 2), (calls, _failures.Count));
        Assert.True(_time.NoNewTimer);
    }

    [Fact]
    public async Task BatchRetry_FailureOnShutdown_NotRetried()
    {
        using var stop = new CancellationTokenSource();

        // A batch rolled back because the worker stops: its failure ends the loop, no pause, no second batch.
        await Assert.ThrowsAsync<NpgsqlException>(() => _retry.ExecuteAsync<int>(
            _ =>
            {
                stop.Cancel();
                throw new NpgsqlException("connection closed by shutdown");
            },
            stop.Token).AsTask());

        Assert.Empty(_failures);
        Assert.True(_time.NoNewTimer);
    }
}
