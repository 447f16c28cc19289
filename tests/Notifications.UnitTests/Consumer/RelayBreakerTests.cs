using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Relay;
using Notifications.Consumer.Telemetry;
using Polly.CircuitBreaker;
using Polly.Timeout;

namespace Notifications.UnitTests.Consumer;

/// <summary>The relay breaker's pipeline as built from <see cref="RelayOptions"/>: what opens it, what it does open, how it closes.</summary>
public sealed class RelayBreakerTests : IDisposable
{
    private static readonly EmailMessage Email = new(1, "to@example.com", "subject", "body", false, DateTimeOffset.UnixEpoch);
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly ManualTime _time = new(new DateTimeOffset(2026, 11, 23, 12, 0, 0, TimeSpan.Zero));
    private readonly ScriptedSender _sender = new();
    private readonly RelayBreaker _breaker;
    private readonly InstrumentReader _instruments;
    private readonly ConsumerMetrics _metrics;
    private readonly RelayOptions _options;

    public RelayBreakerTests()
    {
        var meters = _services.GetRequiredService<IMeterFactory>();
        _instruments = new InstrumentReader(meters);
        var metrics = _metrics = new ConsumerMetrics(meters, _time);
        var options = _options = new RelayOptions
        {
            FailureRatio = 0.5, MinimumThroughput = 4, SamplingDuration = TimeSpan.FromSeconds(10),
            BreakDuration = TimeSpan.FromSeconds(15), SendTimeout = TimeSpan.FromMilliseconds(200),
        };
        _breaker = new RelayBreaker(Options.Create(options), metrics, _time, NullLogger<RelayBreaker>.Instance);
    }

    [Fact]
    public async Task SendAsync_RelayRefusesEverySend_OpensAndTurnsSendsAwayUntilTheBreakIsOver()
    {
        await FailAsync(4, new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused"));

        Assert.Equal(CircuitState.Open, _breaker.State);
        Assert.True(_breaker.IsRejecting);
        Assert.Equal(_time.GetUtcNow() + TimeSpan.FromSeconds(15), _breaker.ProbeAt);
        _sender.Next = null;
        await Assert.ThrowsAsync<BrokenCircuitException>(() => _breaker.SendAsync(_sender, Email, CancellationToken.None));
        Assert.Equal(2, _instruments.Gauge("notifications.relay.breaker.state"));
        Assert.Equal(1, _instruments.Total("notifications.relay.breaker.opened"));
    }

    [Fact]
    public async Task SendAsync_ProbeAfterBreakSucceeds_ClosesAndSendsAgain()
    {
        await FailAsync(4, new SmtpSendException(SendFailureKind.Transient, 421, "MAIL FROM: 421 service not available"));
        _time.Advance(TimeSpan.FromSeconds(15));
        Assert.False(_breaker.IsRejecting);

        _sender.Next = null;
        await _breaker.SendAsync(_sender, Email, CancellationToken.None);

        Assert.Equal(CircuitState.Closed, _breaker.State);
        await _breaker.SendAsync(_sender, Email, CancellationToken.None);
        Assert.Equal(0, _instruments.Gauge("notifications.relay.breaker.state"));
    }

    [Fact]
    public async Task SendAsync_ProbeAfterBreakFails_OpensForAnotherBreak()
    {
        await FailAsync(4, new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused"));
        _time.Advance(TimeSpan.FromSeconds(15));

        await FailAsync(1, new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused"));

        Assert.Equal(CircuitState.Open, _breaker.State);
        Assert.Equal(_time.GetUtcNow() + TimeSpan.FromSeconds(15), _breaker.ProbeAt);
        Assert.Equal(1, _instruments.Total("notifications.relay.breaker.opened"));
    }

    [Fact]
    public async Task RejectsFor_ClosedOpenAndProbeDue_NothingTheRestOfTheBreakNothing()
    {
        Assert.Equal(TimeSpan.Zero, _breaker.RejectsFor);
        await FailAsync(4, new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused"));
        Assert.Equal(TimeSpan.FromSeconds(15), _breaker.RejectsFor);

        _time.Advance(TimeSpan.FromSeconds(10));
        Assert.Equal(TimeSpan.FromSeconds(5), _breaker.RejectsFor);
        _time.Advance(TimeSpan.FromSeconds(5));
        Assert.Equal(TimeSpan.Zero, _breaker.RejectsFor);
    }

    // Issue 27 (1): every message parked until the probe came back at once and went through to the delivery log; one is the probe.
    [Fact]
    public async Task TryPass_ProbeDue_OneSendTakesItTheOthersAreTurnedAwayForABreak()
    {
        Assert.True(_breaker.TryPass());
        await FailAsync(4, new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused"));
        Assert.False(_breaker.TryPass());
        _time.Advance(TimeSpan.FromSeconds(15));

        Assert.False(_breaker.IsRejecting);
        Assert.True(_breaker.TryPass());
        Assert.False(_breaker.TryPass());
        Assert.True(_breaker.IsRejecting);
        Assert.Equal(TimeSpan.FromSeconds(15), _breaker.RejectsFor);

        // The send that took it never came: a tenth of a break later the next may take it.
        _time.Advance(TimeSpan.FromSeconds(1.5));
        Assert.True(_breaker.TryPass());
    }

    [Fact]
    public async Task RejectsFor_ProbeUnderWay_AWholeBreak()
    {
        await FailAsync(4, new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused"));
        _time.Advance(TimeSpan.FromSeconds(15));
        var probeSent = new TaskCompletionSource();
        var answer = new TaskCompletionSource();
        _sender.Next = null;
        _sender.OnSend = () =>
        {
            probeSent.SetResult();
            return answer.Task;
        };

        var probe = _breaker.SendAsync(_sender, Email, CancellationToken.None);
        await probeSent.Task;
        Assert.Equal(CircuitState.HalfOpen, _breaker.State);
        Assert.Equal(TimeSpan.FromSeconds(15), _breaker.RejectsFor);
        answer.SetResult();
        await probe;
        Assert.Equal(TimeSpan.Zero, _breaker.RejectsFor);
    }

    [Fact]
    public async Task SendAsync_PermanentFailuresOnly_StaysClosed()
    {
        await FailAsync(20, new SmtpSendException(SendFailureKind.Permanent, 550, "RCPT TO: 550 no such user"));

        Assert.Equal(CircuitState.Closed, _breaker.State);
        Assert.False(_breaker.IsRejecting);
    }

    [Fact]
    public async Task SendAsync_SlowDownRepliesTheRateLimiterTookUp_LeaveTheBreakerClosed()
    {
        await FailAsync(20, new SmtpSendException(SendFailureKind.Transient, 452, "RCPT TO: 452 slow down") { HandledByRateLimiter = true });

        Assert.Equal(CircuitState.Closed, _breaker.State);
        Assert.False(_breaker.IsRejecting);
        // The same reply for a destination without a limit is the relay's: it opens the breaker (those 20 were
        // successes for it, so they are let out of the sampling window first).
        _time.Advance(TimeSpan.FromSeconds(11));
        await FailAsync(4, new SmtpSendException(SendFailureKind.Transient, 452, "RCPT TO: 452 slow down"));
        Assert.Equal(CircuitState.Open, _breaker.State);
    }

    [Fact]
    public async Task SendAsync_ConnectionLostAfterTheDot_CountsAgainstTheRelay()
    {
        await FailAsync(4, new SmtpSendException(SendFailureKind.Unknown, null, "lost after the final '.'"));

        Assert.Equal(CircuitState.Open, _breaker.State);
    }

    [Fact]
    public async Task SendAsync_FewerSendsThanMinimumThroughput_StaysClosed()
    {
        await FailAsync(3, new SmtpSendException(SendFailureKind.Transient, 451, "RCPT TO: 451 try later"));

        Assert.Equal(CircuitState.Closed, _breaker.State);
    }

    [Fact]
    public async Task SendAsync_SlowerThanSendTimeout_CutOffAndCountedAgainstTheRelay()
    {
        _sender.Delay = TimeSpan.FromSeconds(30);

        for (int i = 0; i < 4; i++)
        {
            await Assert.ThrowsAsync<TimeoutRejectedException>(() => _breaker.SendAsync(_sender, Email, CancellationToken.None));
        }

        Assert.Equal(CircuitState.Open, _breaker.State);
    }

    [Fact]
    public async Task SendAsync_DestinationBreakerOpens_RelayGaugeAndCounterUntouched()
    {
        var endpoint = new RelayBreaker("webhook:partner", _options, gated: false, _metrics, _time, NullLogger.Instance);
        _sender.Next = new SmtpSendException(SendFailureKind.Transient, null, "connect: connection refused");
        for (int i = 0; i < 4; i++)
        {
            await Assert.ThrowsAsync<SmtpSendException>(() => endpoint.SendAsync(_sender, Email, CancellationToken.None));
        }

        Assert.Equal((CircuitState.Open, CircuitState.Closed), (endpoint.State, _breaker.State));
        Assert.Equal(0, _instruments.Gauge("notifications.relay.breaker.state"));
        Assert.Equal(0, _instruments.Total("notifications.relay.breaker.opened"));
    }

    public void Dispose()
    {
        _instruments.Dispose();
        _services.Dispose();
    }

    private async Task FailAsync(int times, SmtpSendException failure)
    {
        _sender.Next = failure;
        for (int i = 0; i < times; i++)
        {
            var thrown = await Assert.ThrowsAsync<SmtpSendException>(() => _breaker.SendAsync(_sender, Email, CancellationToken.None));
            Assert.Same(failure, thrown);
        }
    }
}
