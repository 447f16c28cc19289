using Notifications.Consumer.Channels.Push;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Push;

/// <summary>A provider's Retry-After: the latest end wins; paused until then, not after.</summary>
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
    public void PausedUntil_NoPauseOrPauseOver_Null()
    {
        var time = new ManualTime(DateTimeOffset.UtcNow);
        var pause = new ProviderPause(time);
        Assert.Null(pause.PausedUntil);

        var until = time.GetUtcNow().AddSeconds(3);
        pause.Extend(until);
        Assert.Equal(until, pause.PausedUntil);

        time.Advance(TimeSpan.FromSeconds(3));
        Assert.Null(pause.PausedUntil);
    }
}
