using Notifications.Producer;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Producer;

/// <summary>
/// The claim loop's pauses: after rows the next claims come soon (a steady trickle of rows waits about the partial-batch
/// delay for its claim), and only a run of empty claims doubles the pause up to the lane's longest.
/// </summary>
public sealed class LanePacingTests
{
    private static readonly TimeSpan Soon = TimeSpan.FromMilliseconds(5);
    private static readonly ProducerLane Lane = new("standard", OutboxLanes.Standard, 1000,
        IdleDelay: TimeSpan.FromMilliseconds(10), MaxIdleDelay: TimeSpan.FromMilliseconds(250));

    [Fact]
    public void PauseAfter_RowsThenEmptyClaims_SoonTwiceThenDoublingFromTheIdleDelayToTheLongest()
    {
        var (pause, idle) = Lane.PauseAfter(published: 7, Lane.IdleDelay, Soon);
        var pauses = new List<double> { pause.TotalMilliseconds };
        for (int i = 0; i < 7; i++)
        {
            (pause, idle) = Lane.PauseAfter(published: 0, idle, Soon);
            pauses.Add(pause.TotalMilliseconds);
        }

        Assert.Equal([5, 5, 10, 20, 40, 80, 160, 250], pauses);
    }

    [Fact]
    public void PauseAfter_RowsAfterALongIdleRun_BackToSoon()
    {
        var (pause, idle) = Lane.PauseAfter(published: 0, TimeSpan.FromMilliseconds(250), Soon);
        Assert.Equal(250, pause.TotalMilliseconds);

        (pause, idle) = Lane.PauseAfter(published: 1, idle, Soon);
        Assert.Equal(5, pause.TotalMilliseconds);
        Assert.Equal(5, idle.TotalMilliseconds);
    }

    [Fact]
    public void PauseAfter_NoPartialBatchDelay_EmptyClaimsStartAtTheIdleDelay()
    {
        var (pause, idle) = Lane.PauseAfter(published: 3, Lane.IdleDelay, TimeSpan.Zero);
        Assert.Equal(TimeSpan.Zero, pause);

        (pause, idle) = Lane.PauseAfter(published: 0, idle, TimeSpan.Zero);
        Assert.Equal(TimeSpan.Zero, pause);
        (pause, _) = Lane.PauseAfter(published: 0, idle, TimeSpan.Zero);
        Assert.Equal(Lane.IdleDelay, pause);
    }
}
