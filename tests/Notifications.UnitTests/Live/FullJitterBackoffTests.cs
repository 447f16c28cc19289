using Notifications.Client.Live;

namespace Notifications.UnitTests.Live;

/// <summary>Full jitter: each pause uniformly random from zero to min(cap, base × 2^attempt).</summary>
public sealed class FullJitterBackoffTests
{
    private readonly FullJitterBackoff _backoff = new(TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(30));

    [Fact]
    public void Ceiling_DoublesPerAttempt_UpToTheCap()
    {
        Assert.Equal(
            [0.5, 1, 2, 4, 8, 16, 30, 30],
            new[] { 0, 1, 2, 3, 4, 5, 6, 1_000 }.Select(a => _backoff.Ceiling(a).TotalSeconds));
    }

    [Fact]
    public void Delay_SpreadOverZeroToTheCeiling()
    {
        var delays = Enumerable.Range(0, 2_000).Select(_ => _backoff.Delay(3)).ToList();

        Assert.All(delays, d => Assert.InRange(d, TimeSpan.Zero, TimeSpan.FromSeconds(4)));
        // Uniform: each quarter of the window gets some (the chance one gets none of 2,000 is 4 × 0.75^2000).
        Assert.All(Enumerable.Range(0, 4), q => Assert.Contains(delays, d => d.TotalSeconds >= q && d.TotalSeconds < q + 1));
    }
}
