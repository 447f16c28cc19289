using Microsoft.Extensions.Logging;
using Notifications.Shared.Messaging;
using Notifications.UnitTests.Resilience;
using RabbitMQ.Client.Exceptions;

namespace Notifications.UnitTests.Messaging;

/// <summary>The first broker connect's Polly retry: 250 ms doubling to the cap, one log line per failed attempt, until cancelled.</summary>
public sealed class ConnectRetryTests
{
    private static readonly TimeSpan Cap = TimeSpan.FromSeconds(2);

    [Fact]
    public async Task ConnectRetry_BrokerUnreachable_PausesDoubleUpToTheCapAndEachFailureIsLogged()
    {
        var time = new TimerRecordingTime();
        var logger = new RecordingLogger();
        var retry = RabbitConnector.ConnectRetry(Cap, "rabbitmq:5672", logger, time);
        int calls = 0;

        var connect = retry.ExecuteAsync(_ => ++calls <= 7 ? throw Unreachable() : ValueTask.FromResult(calls), CancellationToken.None).AsTask();
        var pauses = await time.FireAsync(7);

        Assert.Equal(8, await connect);
        Assert.Equal([250, 500, 1000, 2000, 2000, 2000, 2000], pauses.Select(p => p.TotalMilliseconds));
        Assert.Equal(7, logger.Records.Count);
        for (int i = 0; i < 7; i++)
        {
            var record = logger.Records[i];
            Assert.Equal((LogLevel.Warning, 1001), (record.Level, record.EventId));
            Assert.Equal(i + 1, record.Values["Attempt"]);
            Assert.Equal(pauses[i], record.Values["Delay"]);
            Assert.Equal("rabbitmq:5672", record.Values["Endpoints"]);
            Assert.Null(record.Exception);
            Assert.Contains("None of the specified endpoints were reachable", record.Message, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task ConnectRetry_ManyFailures_StaysAtTheCapWithoutOverflow()
    {
        var time = new TimerRecordingTime();
        var retry = RabbitConnector.ConnectRetry(Cap, "rabbitmq:5672", new RecordingLogger(), time);
        int calls = 0;

        var connect = retry.ExecuteAsync(_ => ++calls <= 80 ? throw new IOException("refused") : ValueTask.FromResult(calls), CancellationToken.None).AsTask();
        var pauses = await time.FireAsync(80);

        Assert.Equal(81, await connect);
        Assert.All(pauses.Skip(3), p => Assert.Equal(Cap, p));
    }

    [Fact]
    public async Task ConnectRetry_CancelledDuringAPause_StopsAtOnceWithoutAnotherAttempt()
    {
        var time = new TimerRecordingTime();
        var logger = new RecordingLogger();
        var retry = RabbitConnector.ConnectRetry(Cap, "rabbitmq:5672", logger, time);
        using var stop = new CancellationTokenSource();
        int calls = 0;

        var connect = retry.ExecuteAsync<int>(_ => { calls++; throw new TimeoutException("no answer"); }, stop.Token).AsTask();
        await time.NextTimerAsync();
        await stop.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => connect);
        Assert.Equal(1, calls);
        Assert.Single(logger.Records);
        Assert.True(time.NoNewTimer);
    }

    [Fact]
    public async Task ConnectRetry_NotAConnectFailure_ThrownAtOnceAndNotLogged()
    {
        var time = new TimerRecordingTime();
        var logger = new RecordingLogger();
        var retry = RabbitConnector.ConnectRetry(Cap, "rabbitmq:5672", logger, time);
        int calls = 0;

        var failure = await Assert.ThrowsAsync<InvalidOperationException>(() =>
            retry.ExecuteAsync<int>(_ => { calls++; throw new InvalidOperationException("bad options"); }, CancellationToken.None).AsTask());

        Assert.Equal("bad options", failure.Message);
        Assert.Equal(1, calls);
        Assert.Empty(logger.Records);
        Assert.True(time.NoNewTimer);
    }

    private static BrokerUnreachableException Unreachable() => new(new IOException("connection refused"));
}
