using System.Diagnostics.Metrics;
using System.Net.Sockets;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Telemetry;
using Notifications.UnitTests.Resilience;
using Npgsql;
using Polly.CircuitBreaker;
using RabbitMQ.Client.Exceptions;

namespace Notifications.UnitTests.Consumer;

/// <summary>
/// How a delivery's database and broker operations wait out a failure (<see cref="InfrastructureBreaker"/>): tried again with
/// growing pauses, never given up; the breaker opens, the others pause until its probe, and the probe's success closes it.
/// </summary>
public sealed class InfrastructureBreakerTests : IDisposable
{
    private static readonly TimeSpan Break = TimeSpan.FromSeconds(5);
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly TimerRecordingTime _time = new();
    private readonly RecordingLogger _logger = new();
    private readonly InstrumentReader _instruments;
    private readonly ConsumerMetrics _metrics;

    public InfrastructureBreakerTests()
    {
        var meters = _services.GetRequiredService<IMeterFactory>();
        _instruments = new InstrumentReader(meters);
        _metrics = new ConsumerMetrics(meters, _time);
    }

    [Fact]
    public async Task RunAsync_DatabaseUnreachableThenBack_TriedAgainWithGrowingPausesUntilItGoesThrough()
    {
        var breaker = Breaker(minimumThroughput: 100);
        int calls = 0;

        var run = breaker.RunAsync(_ => ++calls <= 3 ? throw Unreachable() : Task.FromResult(42), CancellationToken.None);
        var pauses = await _time.FireAsync(3);

        Assert.Equal(42, await run);
        Assert.Equal(4, calls);
        Assert.InRange(pauses[0], TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(300));
        Assert.InRange(pauses[2], TimeSpan.FromMilliseconds(800), TimeSpan.FromMilliseconds(1200));
        Assert.True(_time.NoNewTimer);
        // The operation's first failure is a warning; its later ones are the breaker's to tell.
        Assert.Equal([(LogLevel.Warning, 4020), (LogLevel.Debug, 4021), (LogLevel.Debug, 4021)], _logger.Records.Select(r => (r.Level, r.EventId)));
        Assert.Equal(CircuitState.Closed, breaker.State);
    }

    [Fact]
    public async Task RunAsync_FaultOfTheMessageOrTheCode_ThrownAtOnce()
    {
        var breaker = Breaker(minimumThroughput: 2);
        int calls = 0;

        await Assert.ThrowsAsync<InvalidOperationException>(() =>
            breaker.RunAsync(_ => { calls++; throw new InvalidOperationException("a bug"); }, CancellationToken.None));
        await Assert.ThrowsAsync<PostgresException>(() =>
            breaker.RunAsync(_ => { calls++; throw new PostgresException("permission denied for table outbox", "ERROR", "ERROR", "42501"); }, CancellationToken.None));

        Assert.Equal(2, calls);
        Assert.True(_time.NoNewTimer);
        Assert.Equal(CircuitState.Closed, breaker.State);
    }

    [Fact]
    public async Task RunAsync_FailuresOpenTheBreaker_OthersPauseUntilTheProbeWhoseSuccessClosesIt()
    {
        var breaker = Breaker(minimumThroughput: 2);
        bool down = true;
        int calls = 0;

        var first = breaker.RunAsync(_ => { calls++; return down ? throw Unreachable() : Task.CompletedTask; }, CancellationToken.None);
        await _time.FireNextAsync();
        // Two failures in the window: open. The operation now pauses until the probe is due, not for a backoff of its own.
        var untilProbe = await _time.NextTimerAsync();
        Assert.Equal(CircuitState.Open, breaker.State);
        Assert.Equal(Break, untilProbe);
        Assert.Equal(2, _instruments.Gauge("notifications.infrastructure.breaker.state"));
        Assert.Equal(1, _instruments.Total("notifications.infrastructure.breaker.opened"));

        // Another operation meanwhile is turned away without being run, and pauses until the probe too.
        using (var stop = new CancellationTokenSource())
        {
            var other = breaker.RunAsync(_ => throw new InvalidOperationException("must not run while open"), stop.Token);
            Assert.Equal(Break, await _time.NextTimerAsync());
            await stop.CancelAsync();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => other);
        }

        // The first one due is the probe: the database is back, it goes through and closes the breaker.
        down = false;
        _time.Advance(untilProbe);
        await first;
        Assert.Equal(3, calls);
        Assert.Equal(CircuitState.Closed, breaker.State);
        Assert.Equal(0, _instruments.Gauge("notifications.infrastructure.breaker.state"));
        Assert.Equal(7, await breaker.RunAsync(_ => Task.FromResult(7), CancellationToken.None));
        Assert.True(_time.NoNewTimer);
    }

    [Fact]
    public async Task RunAsync_Cancelled_StopsWaiting()
    {
        var breaker = Breaker(minimumThroughput: 100);
        using var stop = new CancellationTokenSource();

        var run = breaker.RunAsync(_ => throw Unreachable(), stop.Token);
        await _time.NextTimerAsync();
        await stop.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => run);
    }

    [Theory]
    [MemberData(nameof(Failures))]
    public void Is_TellsTheDatabaseOrBrokerFailingFromAFaultOfTheMessage(Exception failure, bool infrastructure) =>
        Assert.Equal(infrastructure, InfrastructureFailure.Is(failure));

    public static TheoryData<Exception, bool> Failures() => new()
    {
        { Unreachable(), true },
        { new NpgsqlException("Exception while reading from stream", new EndOfStreamException()), true },
        { new PostgresException("canceling statement due to statement timeout", "ERROR", "ERROR", "57014"), true },
        { new PostgresException("the database system is shutting down", "FATAL", "FATAL", "57P03"), true },
        { new PostgresException("too many connections", "FATAL", "FATAL", "53300"), true },
        { new PostgresException("permission denied for table delivery_log", "ERROR", "ERROR", "42501"), false },
        { new PostgresException("value too long for type character varying(320)", "ERROR", "ERROR", "22001"), false },
        { new IOException("publishing to 'notifications.retry.1' failed: confirm timed out"), true },
        { new AlreadyClosedException(new RabbitMQ.Client.Events.ShutdownEventArgs(RabbitMQ.Client.ShutdownInitiator.Peer, 320, "CONNECTION_FORCED")), true },
        { new TimeoutException("pool exhausted"), true },
        { new InvalidOperationException("a bug"), false },
        { new ArgumentException("bad data"), false },
    };

    public void Dispose()
    {
        _instruments.Dispose();
        _metrics.Dispose();
        _services.Dispose();
    }

    private static NpgsqlException Unreachable() => new("Failed to connect to 127.0.0.1:5432", new SocketException((int)SocketError.ConnectionRefused));

    private InfrastructureBreaker Breaker(int minimumThroughput) => new(
        Options.Create(new InfrastructureOptions
        {
            FailureRatio = 0.5, MinimumThroughput = minimumThroughput, SamplingDuration = TimeSpan.FromSeconds(30), BreakDuration = Break,
        }),
        _metrics, _time, _logger);
}
