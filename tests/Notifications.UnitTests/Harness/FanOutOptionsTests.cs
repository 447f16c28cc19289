using Notifications.Harness;

namespace Notifications.UnitTests.Harness;

/// <summary>The <c>fanout</c> mode's options of scripts/bench: the registry's size, <c>--single</c> and what they refuse.</summary>
public sealed class FanOutOptionsTests
{
    [Fact]
    public void Parse_FanOutPush_RegistryAndPageSizeTaken()
    {
        var options = HarnessOptions.Parse(["fanout", "--subscribers", "1_000_000", "--devices-per-subscriber", "2", "--channel", "push", "--page-size", "2000", "--runs", "3"]);

        Assert.Equal(("fanout", "push", 1_000_000, 2, 2000, 3), (options.Mode, options.Channel, options.FanOut.Subscribers, options.FanOut.DevicesPerSubscriber, options.FanOut.PageSize, options.Runs));
        Assert.False(options.FanOut.Single);
        Assert.Equal(2_000_000, options.FanOut.ExpectedPerNotification);
    }

    [Fact]
    public void Parse_FanOutDefaults_HundredThousandSubscribersOneDeviceProducersPageSize()
    {
        var options = HarnessOptions.Parse(["fanout", "--channel", "email"]);

        Assert.Equal((100_000, 1, (int?)null, TimeSpan.FromMinutes(10)), (options.FanOut.Subscribers, options.FanOut.DevicesPerSubscriber, options.FanOut.PageSize, options.FanOut.Timeout));
    }

    [Fact]
    public void Parse_Single_OneSubscriberThreeDevicesAt200PerSecond()
    {
        var options = HarnessOptions.Parse(["fanout", "--single", "--channel", "push", "--duration", "30s"]);

        Assert.Equal((true, 1, 3, 200, 3L), (options.FanOut.Single, options.FanOut.Subscribers, options.FanOut.DevicesPerSubscriber, options.Rate, options.FanOut.ExpectedPerNotification));
        Assert.Equal(TimeSpan.FromSeconds(30), options.Duration);
    }

    [Fact]
    public void Parse_SingleWithOwnRegistryAndRate_TheyWin()
    {
        var options = HarnessOptions.Parse(["fanout", "--subscribers", "500", "--single", "--channel", "push", "--rate", "400", "--devices-per-subscriber", "2"]);

        Assert.Equal((500, 2, 400), (options.FanOut.Subscribers, options.FanOut.DevicesPerSubscriber, options.Rate));
    }

    [Fact]
    public void Parse_ReceiverPushArrivals_Recorded()
    {
        Assert.True(HarnessOptions.Parse(["receiver", "push", "--arrivals"]).Arrivals);
    }

    [Theory]
    [InlineData("fanout", "--channel", "webhook")]
    [InlineData("fanout", "--channel", "email", "--sender", "simulated")]
    [InlineData("fanout", "--single", "--channel", "email")]
    [InlineData("fanout", "--channel", "push", "--subscribers", "0")]
    [InlineData("fanout", "--channel", "push", "--subscribers", "many")]
    [InlineData("fanout", "--channel", "push", "--devices-per-subscriber", "101")]
    [InlineData("fanout", "--channel", "push", "--page-size", "50001")]
    [InlineData("fanout", "--channel", "push", "--timeout", "0s")]
    [InlineData("fanout", "--single", "--channel", "push", "--rate", "0")]
    [InlineData("fanout", "--channel", "push", "--subscribers", "10000000", "--devices-per-subscriber", "6")]
    [InlineData("run", "--subscribers", "10")]
    [InlineData("latency", "--single")]
    [InlineData("receiver", "webhook", "--arrivals")]
    [InlineData("run", "--arrivals")]
    public void Parse_OutsideTheFanOutRules_Refused(params string[] args)
    {
        Assert.Throws<ArgumentException>(() => HarnessOptions.Parse(args));
    }
}
