using Notifications.Admin.Status;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Status;

/// <summary>The configured rate beside a rate limit's row, as <c>admin status</c> and the console's overview show it.</summary>
public sealed class ConfiguredRateTests
{
    [Theory]
    [InlineData(10_000L, "100/s")]
    [InlineData(3_000L, "333.33/s")]
    [InlineData(2_000_000L, "30/min")]
    [InlineData(null, "not written yet")]
    public void ConfiguredRate_IntervalOfTheLastLease_ReadsAsARate(long? intervalUs, string expected)
    {
        var limit = RateLimitState.FromRow("relay", 1, 0, 0, 1_000_000, intervalUs);

        Assert.Equal(expected, StatusFormat.ConfiguredRate(limit));
    }
}
