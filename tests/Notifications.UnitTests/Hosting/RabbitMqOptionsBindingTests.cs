using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;

namespace Notifications.UnitTests.Hosting;

public sealed class RabbitMqOptionsBindingTests
{
    // Regression: the binder appended configured delays to the four defaults, so a worker declared
    // retry queues with other TTLs than configured (PRECONDITION_FAILED against an existing topology).
    [Fact]
    public void AddRabbitMqOptions_RetryDelaysConfigured_ReplaceTheDefaultsInsteadOfAppending()
    {
        var options = RabbitMqOptionsBinding.Bind(new() { ["RabbitMq:RetryDelays:0"] = "00:00:00.2", ["RabbitMq:RetryDelays:1"] = "00:00:00.4" });

        Assert.Equal([TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(400)], options.RetryDelays);
    }

    [Fact]
    public void AddRabbitMqOptions_RetryDelaysNotConfigured_KeepsTheDefaults()
    {
        var options = RabbitMqOptionsBinding.Bind(new() { ["RabbitMq:Queue"] = "q" });

        Assert.Equal(new RabbitMqOptions().RetryDelays, options.RetryDelays);
    }

    [Fact]
    public void AddRabbitMqOptions_QueueTypeAndEndpoints_BoundCaseInsensitivelyAndParsed()
    {
        var options = RabbitMqOptionsBinding.Bind(new()
        {
            ["RabbitMq:Uri"] = "amqp://u:p@ignored:1/vh",
            ["RabbitMq:QueueType"] = "quorum",
            ["RabbitMq:Endpoints"] = "127.0.0.1:5681, 127.0.0.1:5682,rabbit3:5683",
        });

        Assert.Equal(RabbitQueueType.Quorum, options.QueueType);
        Assert.Equal(20, options.DeliveryLimit);
        Assert.Equal(["127.0.0.1:5681", "127.0.0.1:5682", "rabbit3:5683"], options.BrokerEndpoints().Select(e => $"{e.HostName}:{e.Port}"));
    }

    [Fact]
    public void AddRabbitMqOptions_NoEndpoints_TheUrisHostAndPortAndClassicQueues()
    {
        var options = RabbitMqOptionsBinding.Bind(new() { ["RabbitMq:Uri"] = "amqp://u:p@broker.example:5673/" });

        Assert.Equal(RabbitQueueType.Classic, options.QueueType);
        var endpoint = Assert.Single(options.BrokerEndpoints());
        Assert.Equal(("broker.example", 5673), (endpoint.HostName, endpoint.Port));
    }

    [Theory]
    [InlineData("127.0.0.1:notaport")]
    [InlineData("127.0.0.1:5681,127.0.0.1:99999")]
    [InlineData("127.0.0.1:5681,:5682")]
    public void AddRabbitMqOptions_BadEndpoints_FailValidationNamingTheKey(string endpoints)
    {
        var error = Assert.Throws<OptionsValidationException>(() => RabbitMqOptionsBinding.Bind(new() { ["RabbitMq:Endpoints"] = endpoints }));

        Assert.Contains("RabbitMq:Endpoints", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddRabbitMqOptions_UnknownQueueType_FailsToBind() =>
        Assert.ThrowsAny<InvalidOperationException>(() => RabbitMqOptionsBinding.Bind(new() { ["RabbitMq:QueueType"] = "stream" }));
}
