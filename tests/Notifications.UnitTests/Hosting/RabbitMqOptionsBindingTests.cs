using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
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
        var options = Bind(new() { ["RabbitMq:RetryDelays:0"] = "00:00:00.2", ["RabbitMq:RetryDelays:1"] = "00:00:00.4" });

        Assert.Equal([TimeSpan.FromMilliseconds(200), TimeSpan.FromMilliseconds(400)], options.RetryDelays);
    }

    [Fact]
    public void AddRabbitMqOptions_RetryDelaysNotConfigured_KeepsTheDefaults()
    {
        var options = Bind(new() { ["RabbitMq:Queue"] = "q" });

        Assert.Equal(new RabbitMqOptions().RetryDelays, options.RetryDelays);
    }

    private static RabbitMqOptions Bind(Dictionary<string, string?> settings)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(settings).Build();
        using var services = new ServiceCollection().AddSingleton<IConfiguration>(configuration).AddRabbitMqOptions().BuildServiceProvider();
        return services.GetRequiredService<IOptions<RabbitMqOptions>>().Value;
    }
}
