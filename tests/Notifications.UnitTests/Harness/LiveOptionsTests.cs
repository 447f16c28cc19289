using Notifications.Harness;
using Notifications.Harness.Live;

namespace Notifications.UnitTests.Harness;

/// <summary>The <c>live</c> mode's options of scripts/bench: clients, gateways, their ports, the ack sample, the storm, the broadcast, and what they refuse.</summary>
public sealed class LiveOptionsTests
{
    [Fact]
    public void Parse_Live_ClientsGatewaysRateDurationRunsTaken()
    {
        var options = HarnessOptions.Parse(["live", "--clients", "100_000", "--gateways", "6", "--rate", "1000", "--duration", "30s", "--runs", "3", "--gateway-port", "3000", "--ack-sample", "10"]);

        Assert.Equal(("live", 100_000, 6, 3000, 10), (options.Mode, options.Live.Clients, options.Live.Gateways, options.Live.GatewayPort, options.Live.AckSample));
        Assert.Equal((1000, TimeSpan.FromSeconds(30), 3), (options.Rate, options.Duration, options.Runs));
    }

    [Fact]
    public void Parse_PriorityUrgentLive_ClientsAndGatewaysTaken_EmailByDefault()
    {
        var live = HarnessOptions.Parse(["priority", "--urgent-channel", "live", "--clients", "200", "--gateways", "2", "--urgent-rate", "50"]);
        var email = HarnessOptions.Parse(["priority"]);

        Assert.Equal(("live", 200, 2, 50), (live.UrgentChannel, live.Live.Clients, live.Live.Gateways, live.UrgentRate));
        Assert.Equal("email", email.UrgentChannel);
    }

    [Fact]
    public void Parse_UrgentConsumers_BesideTheOthers_NoneByDefault()
    {
        var apart = HarnessOptions.Parse(["priority", "--consumers", "2", "--urgent-consumers", "1"]);

        Assert.Equal((2, 1, 3), (apart.Consumers, apart.UrgentConsumers, apart.ConsumerProcesses));
        Assert.Equal(0, HarnessOptions.Parse(["priority"]).UrgentConsumers);
    }

    [Fact]
    public void Parse_LiveDefaults_ThousandClientsOneGatewayPort2690()
    {
        var live = HarnessOptions.Parse(["live"]).Live;

        Assert.Equal((1_000, 1, 2690, 100), (live.Clients, live.Gateways, live.GatewayPort, live.AckSample));
    }

    [Fact]
    public void Parse_Storm_OffByDefault_WithinTaken_DropAtHalfTheDurationUnlessGiven()
    {
        var off = HarnessOptions.Parse(["live"]).Live;
        var half = HarnessOptions.Parse(["live", "--duration", "60s", "--storm-within", "10s"]).Live;
        var at = HarnessOptions.Parse(["live", "--duration", "60s", "--storm-within", "10s", "--storm-at", "20s"]).Live;

        Assert.Null(off.StormWithin);
        Assert.Equal((TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(30)), (half.StormWithin, half.StormDropAt(TimeSpan.FromSeconds(60))));
        Assert.Equal(TimeSpan.FromSeconds(20), at.StormDropAt(TimeSpan.FromSeconds(60)));
    }

    [Fact]
    public void Parse_Broadcast_TopicByDefault_RowsTaken()
    {
        var topic = HarnessOptions.Parse(["live"]).Live;
        var rows = HarnessOptions.Parse(["live", "--broadcast", "rows"]).Live;
        var named = HarnessOptions.Parse(["live", "--broadcast", "topic"]).Live;

        Assert.Equal((LiveBenchOptions.TopicBroadcast, LiveBenchOptions.RowsBroadcast, LiveBenchOptions.TopicBroadcast), (topic.Broadcast, rows.Broadcast, named.Broadcast));
    }

    [Theory]
    [InlineData("all")]
    [InlineData("Topic")]
    [InlineData("")]
    public void Parse_BroadcastNeitherTopicNorRows_RefusedNamingTheOption(string value)
    {
        var refused = Assert.Throws<ArgumentException>(() => HarnessOptions.Parse(["live", "--broadcast", value]));

        Assert.Contains("--broadcast", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void GatewayPorts_EachGatewaysGrpcAndOperationsPortsItsOwn() =>
        Assert.Equal((2791, 2891), (LiveBenchOptions.GrpcPort(2690, 1), LiveBenchOptions.OperationsPort(2690, 1)));

    [Theory]
    [InlineData(20_000, 19_500, 1, true)]
    [InlineData(20_000, 19_501, 1, false)]
    [InlineData(20_000, 100_000, 6, true)]
    [InlineData(20_000, 100_000, 5, false)]
    public void DescriptorShortfall_EachGatewaysShareAgainstTheOpenFilesLimit(long limit, int clients, int gateways, bool fits)
    {
        var live = HarnessOptions.Parse(["live", "--clients", Invariant(clients), "--gateways", Invariant(gateways)]).Live;

        Assert.Equal(fits, live.DescriptorShortfall(limit) is null);
    }

    [Fact]
    public void ClientsPerProcess_TheLimitLessWhatAProcessKeepsForItself() =>
        Assert.Equal(19_500, LiveBenchOptions.ClientsPerProcess(20_000));

    [Fact]
    public void Subscriber_KthClient_NamedForTheOutboxCheck() =>
        Assert.Matches("^[A-Za-z0-9][A-Za-z0-9._:@+=-]{0,127}$", LiveBenchOptions.Subscriber(100_000));

    [Theory]
    [InlineData("live", "--clients", "0")]
    [InlineData("live", "--clients", "many")]
    [InlineData("live", "--gateways", "0")]
    [InlineData("live", "--clients", "2", "--gateways", "3")]
    [InlineData("live", "--rate", "0")]
    [InlineData("live", "--ack-sample", "0")]
    [InlineData("live", "--storm-at", "10s")]
    [InlineData("live", "--duration", "20s", "--storm-within", "5s", "--storm-at", "20s")]
    [InlineData("live", "--storm-within", "0s")]
    [InlineData("latency", "--storm-within", "10s")]
    [InlineData("latency", "--broadcast", "rows")]
    [InlineData("priority", "--urgent-channel", "live", "--broadcast", "rows")]
    [InlineData("run", "--clients", "10")]
    [InlineData("latency", "--gateways", "2")]
    [InlineData("priority", "--clients", "10")]
    [InlineData("priority", "--urgent-channel", "push")]
    [InlineData("priority", "--urgent-channel", "live", "--clients", "2", "--gateways", "3")]
    [InlineData("priority", "--urgent-channel", "live", "--clients", "100000")]
    [InlineData("priority", "--urgent-channel", "live", "--storm-within", "10s")]
    [InlineData("latency", "--urgent-channel", "live")]
    [InlineData("priority", "--urgent-consumers", "17")]
    [InlineData("run", "--baseline", "--urgent-consumers", "1")]
    public void Parse_OutsideTheLiveRules_Refused(params string[] args)
    {
        Assert.Throws<ArgumentException>(() => HarnessOptions.Parse(args));
    }

    private static string Invariant(int value) => value.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
