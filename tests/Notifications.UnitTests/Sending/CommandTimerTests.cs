using Notifications.Consumer.Sending.Smtp;

namespace Notifications.UnitTests.Sending;

public sealed class CommandTimerTests
{
    private static readonly TimeSpan Long = TimeSpan.FromHours(1);

    [Fact]
    public async Task Start_TimeoutElapses_TokenCancelled()
    {
        using var timer = new CommandTimer();

        CancellationToken token = timer.Start(TimeSpan.FromMilliseconds(20), CancellationToken.None);

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Task.Delay(Timeout.Infinite, token));
        timer.Stop();
    }

    [Fact]
    public async Task Start_AfterATimedOutOperation_FreshTokenNotCancelled()
    {
        using var timer = new CommandTimer();
        CancellationToken first = timer.Start(TimeSpan.FromMilliseconds(1), CancellationToken.None);
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => Task.Delay(Timeout.Infinite, first));
        timer.Stop();

        CancellationToken second = timer.Start(Long, CancellationToken.None);

        Assert.False(second.IsCancellationRequested);
        timer.Stop();
    }

    [Fact]
    public void Start_CallerCancels_TokenCancelled()
    {
        using var timer = new CommandTimer();
        using var caller = new CancellationTokenSource();
        CancellationToken token = timer.Start(Long, caller.Token);

        caller.Cancel();

        Assert.True(token.IsCancellationRequested);
        timer.Stop();
    }

    [Fact]
    public void Stop_ThenCallerCancels_NextOperationUnaffected()
    {
        using var timer = new CommandTimer();
        using var caller = new CancellationTokenSource();
        timer.Start(Long, caller.Token);
        timer.Stop();

        caller.Cancel();
        CancellationToken next = timer.Start(Long, CancellationToken.None);

        Assert.False(next.IsCancellationRequested);
        timer.Stop();
    }
}
