using Notifications.Producer;

namespace Notifications.UnitTests.Producer;

public sealed class UrgentWakeTests
{
    [Fact]
    public void WaitAsync_SignalledBefore_CompletesAtOnce()
    {
        var wake = new UrgentWake();
        wake.Signal();

        var wait = wake.WaitAsync(TimeSpan.FromMinutes(1), CancellationToken.None);

        Assert.True(wait.IsCompletedSuccessfully);
    }

    [Fact]
    public async Task Signal_ThreeTimes_KeepsOnePendingSignal()
    {
        var wake = new UrgentWake();
        wake.Signal();
        wake.Signal();
        wake.Signal();
        using var cancel = new CancellationTokenSource();

        var first = wake.WaitAsync(TimeSpan.FromMinutes(1), cancel.Token);
        var second = wake.WaitAsync(TimeSpan.FromMinutes(1), cancel.Token);

        Assert.True(first.IsCompletedSuccessfully);
        Assert.False(second.IsCompleted);
        await cancel.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => second);
    }

    [Fact]
    public void SetListening_StartAndStop_CountsStartsAndWakesEachTime()
    {
        var wake = new UrgentWake();

        wake.SetListening(true);
        bool listeningAfterStart = wake.IsListening;
        bool wokenByStart = wake.WaitAsync(TimeSpan.FromMinutes(1), CancellationToken.None).IsCompletedSuccessfully;
        wake.SetListening(false);
        bool wokenByStop = wake.WaitAsync(TimeSpan.FromMinutes(1), CancellationToken.None).IsCompletedSuccessfully;

        Assert.True(listeningAfterStart);
        Assert.True(wokenByStart);
        Assert.True(wokenByStop);
        Assert.False(wake.IsListening);
        Assert.Equal(1, wake.ListenStarts);
    }

    [Theory]
    [InlineData(true, 1000, 1000)]
    [InlineData(false, 1000, 100)]
    [InlineData(true, 50, 100)]  // a listening bound below the plain one never shortens the pause's cap
    public void LongestPause_ListeningOrNot_UsesTheMatchingBound(bool listening, int listeningMs, int expectedMs)
    {
        var wake = new UrgentWake();
        wake.SetListening(listening);
        var options = new ProducerOptions
        {
            UrgentMaxPollInterval = TimeSpan.FromMilliseconds(100),
            UrgentMaxPollIntervalListening = TimeSpan.FromMilliseconds(listeningMs),
        };

        var lane = ProducerLane.Urgent(options, wake);

        Assert.Equal(TimeSpan.FromMilliseconds(expectedMs), lane.LongestPause);
    }

    [Fact]
    public void LongestPause_StandardLane_IsMaxIdleDelay()
    {
        var lane = ProducerLane.Standard(new ProducerOptions());

        Assert.Equal(new ProducerOptions().MaxIdleDelay, lane.LongestPause);
    }
}
