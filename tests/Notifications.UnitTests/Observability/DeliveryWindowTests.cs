using Notifications.Shared.Data;

namespace Notifications.UnitTests.Observability;

public sealed class DeliveryWindowTests
{
    [Fact]
    public void DeliveryWindow_Ratios_AreSharesOfDelivered()
    {
        var window = new DeliveryWindow(TimeSpan.FromMinutes(5), Delivered: 200, WithinFast: 50, WithinSlo: 199, LastMinute: 40);

        Assert.Equal(0.995, window.SloRatio, 6);
        Assert.Equal(0.25, window.FastRatio, 6);
        Assert.Equal(200 / 300.0, window.RatePerSecond, 6);
    }
}
