using Notifications.Consumer.Channels.Push;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Push;

/// <summary>A provider's Retry-After: the latest end wins; no pause, no wait.</summary>
public sealed class ProviderPauseTests
{
    [Fact]
    public void Extend_EarlierAfterLater_LaterKept()
    {
        var time = new ManualTime(DateTimeOffset.UtcNow);
        var pause = new ProviderPause(time);

        pause.Extend(time.GetUtcNow().AddSeconds(30));
        pause.Extend(time.GetUtcNow().AddSeconds(5));

        Assert.Equal(time.GetUtcNow().AddSeconds(30), pause.Until);
    }

    [Fact]
    public void WaitAsync_NoPauseOrPauseOver_CompletesAtOnce()
    {
        var time = new ManualTime(DateTimeOffset.UtcNow);
        var pause = new ProviderPause(time);
        Assert.True(pause.WaitAsync(CancellationToken.None).IsCompletedSuccessfully);

        pause.Extend(time.GetUtcNow().AddSeconds(3));
        var waiting = pause.WaitAsync(CancellationToken.None);
        time.Advance(TimeSpan.FromSeconds(3));

        Assert.False(waiting.IsCompleted);
        Assert.True(pause.WaitAsync(CancellationToken.None).IsCompletedSuccessfully);
    }
}
