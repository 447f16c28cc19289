using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Consumer;
using Notifications.Producer;

namespace Notifications.UnitTests.Hosting;

/// <summary>Bad configuration stops a worker at start with a message naming the key, not mid-run.</summary>
public sealed class OptionsValidationTests
{
    [Theory]
    [InlineData("Producer:BatchSize", "0", "BatchSize")]
    [InlineData("Database:Schema", "bad;name", "Schema")]
    [InlineData("RabbitMq:Queue", "has space", "Queue")]
    public void AddProducer_InvalidSetting_FailsValidationNamingIt(string key, string value, string expected)
    {
        var ex = Assert.Throws<OptionsValidationException>(() => Resolve(b => b.AddProducer(), key, value));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Consumer:Handlers", "0", "Handlers")]
    [InlineData("Consumer:Prefetch", "70000", "Prefetch")]
    [InlineData("Database:ConnectionString", "", "ConnectionString")]
    [InlineData("Relay:FailureRatio", "0", "FailureRatio")]
    [InlineData("Relay:MinimumThroughput", "1", "MinimumThroughput")]
    [InlineData("Relay:BreakDuration", "00:00:00.100", "BreakDuration")]
    public void AddConsumer_InvalidSetting_FailsValidationNamingIt(string key, string value, string expected)
    {
        var ex = Assert.Throws<OptionsValidationException>(() => Resolve(b => b.AddConsumer(), key, value));

        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddConsumer_Defaults_AreValid() => Resolve(b => b.AddConsumer(), "Consumer:Handlers", "32");

    private static void Resolve(Action<IHostApplicationBuilder> add, string key, string value)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Database:ConnectionString"] = "Host=127.0.0.1",
            [key] = value,
        });
        add(builder);
        using var host = builder.Build();
        var validator = host.Services.GetRequiredService<IStartupValidator>();
        validator.Validate();
    }
}
