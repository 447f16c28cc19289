using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;

namespace Notifications.UnitTests.Hosting;

/// <summary>Binds and validates <see cref="RabbitMqOptions"/> from settings the way the workers do (AddRabbitMqOptions).</summary>
internal static class RabbitMqOptionsBinding
{
    public static RabbitMqOptions Bind(Dictionary<string, string?> settings)
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(settings).Build();
        using var services = new ServiceCollection().AddSingleton<IConfiguration>(configuration).AddRabbitMqOptions().BuildServiceProvider();
        return services.GetRequiredService<IOptions<RabbitMqOptions>>().Value;
    }
}
