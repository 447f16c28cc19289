using Microsoft.Extensions.Time.Testing;
using Notifications.Producer;

namespace Notifications.UnitTests.Producer;

public sealed class LanePaceTests
{
    private static readonly ProducerOptions Options = new()
    {
        BatchSize = 100,
        PartialBatchDelay = TimeSpan.FromMilliseconds(5),
        IdleDelay = TimeSpan.FromMilliseconds(10),
        MaxIdleDelay = TimeSpan.FromMilliseconds(250),
        FlowWindow = TimeSpan.FromMilliseconds(50),
    };

    [Fact]
    public void After_FullPartialAndEmptyBatches_NoPauseThenTheShortOneThenBackOff()
    {
        var time = new FakeTimeProvider();
        var pace = new LanePace(ProducerLane.Standard(Options), Options, time);

        var full = pace.After(100);
        var partial = pace.After(3);
        time.Advance(TimeSpan.FromMilliseconds(60));
        var emptyPastTheWindow = pace.After(0);
        var again = pace.After(0);
        var andAgain = pace.After(0);

        Assert.Equal(TimeSpan.Zero, full);
        Assert.Equal(TimeSpan.FromMilliseconds(5), partial);
        Assert.Equal(
            [TimeSpan.FromMilliseconds(10), TimeSpan.FromMilliseconds(20), TimeSpan.FromMilliseconds(40)],
            [emptyPastTheWindow, again, andAgain]);
    }

    [Fact]
    public void After_EmptyClaimsWithinTheFlowWindow_KeepTheShortPauseAndBackOffFromTheStartAfterIt()
    {
        var time = new FakeTimeProvider();
        var pace = new LanePace(ProducerLane.Standard(Options), Options, time);

        pace.After(2);
        time.Advance(TimeSpan.FromMilliseconds(20));
        var first = pace.After(0);
        time.Advance(TimeSpan.FromMilliseconds(20));
        var second = pace.After(0);
        time.Advance(TimeSpan.FromMilliseconds(20));
        var pastTheWindow = pace.After(0);
        var next = pace.After(0);

        Assert.Equal(TimeSpan.FromMilliseconds(5), first);
        Assert.Equal(TimeSpan.FromMilliseconds(5), second);
        Assert.Equal(TimeSpan.FromMilliseconds(10), pastTheWindow);
        Assert.Equal(TimeSpan.FromMilliseconds(20), next);
    }

    [Fact]
    public void After_NoRowsYetOrWindowZero_BacksOffAtTheFirstEmptyClaim()
    {
        var time = new FakeTimeProvider();
        var noWindow = new ProducerOptions { PartialBatchDelay = Options.PartialBatchDelay, IdleDelay = Options.IdleDelay, FlowWindow = TimeSpan.Zero };
        var fresh = new LanePace(ProducerLane.Standard(Options), Options, time);
        var windowless = new LanePace(ProducerLane.Standard(noWindow), noWindow, time);

        var firstEver = fresh.After(0);
        windowless.After(1);
        var rightAfterRows = windowless.After(0);

        Assert.Equal(TimeSpan.FromMilliseconds(10), firstEver);
        Assert.Equal(TimeSpan.FromMilliseconds(10), rightAfterRows);
    }

    [Fact]
    public void After_LongEmptySpell_CapsAtTheLanesLongestPauseAndRowsResetIt()
    {
        var time = new FakeTimeProvider();
        var pace = new LanePace(ProducerLane.Standard(Options), Options, time);

        var pauses = Enumerable.Range(0, 8).Select(_ => pace.After(0)).ToList();
        pace.After(1);
        time.Advance(TimeSpan.FromSeconds(1));
        var afterRows = pace.After(0);

        Assert.Equal(TimeSpan.FromMilliseconds(250), pauses[^1]);
        Assert.Equal(TimeSpan.FromMilliseconds(10), afterRows);
    }
}
