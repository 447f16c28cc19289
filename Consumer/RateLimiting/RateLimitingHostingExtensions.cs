using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Infrastructure;
using Notifications.Consumer.Relay;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Consumer.RateLimiting;

/// <summary>DI wiring of the fleet-wide rate limits (section <c>RateLimits</c>).</summary>
internal static class RateLimitingHostingExtensions
{
    public static IServiceCollection AddRateLimiting(this IServiceCollection services)
    {
        services.AddOptions<RateLimitOptions>().BindConfiguration(RateLimitOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<IValidateOptions<RateLimitOptions>, RateLimitOptionsValidator>();
        // RateLimits:Connections: each handler owns one SMTP connection, so the cap is on the handlers.
        services.AddOptions<ConsumerOptions>().PostConfigure<IOptions<RateLimitOptions>>((consumer, limits) =>
        {
            if (limits.Value.Connections is { } connections)
            {
                consumer.Handlers = Math.Min(consumer.Handlers, connections);
            }
        });
        services.AddSingleton<RateLimitSettings>();
        services.AddSingleton<IRateLimitStore>(sp =>
        {
            var database = sp.GetRequiredService<IOptions<DatabaseOptions>>().Value;
            return database.Provider == DatabaseProvider.Postgres
                ? new PostgresRateLimitStore(sp.GetRequiredService<NpgsqlDataSource>(), database)
                : new SqlServerRateLimitStore(database);
        });
        services.AddSingleton(sp => new FleetRateLimiter(
            sp.GetRequiredService<IRateLimitStore>(), sp.GetRequiredService<RateLimitSettings>(), sp.GetRequiredService<TimeProvider>(),
            sp.GetRequiredService<Microsoft.Extensions.Logging.ILogger<FleetRateLimiter>>(), sp.GetRequiredService<IOptions<RelayOptions>>().Value.SendTimeout));
        services.AddSingleton(sp => new RateLimitLanes(
            sp.GetRequiredService<RateLimitSettings>(), sp.GetRequiredService<FleetRateLimiter>(), sp.GetRequiredService<RelayBreaker>(),
            sp.GetRequiredService<InfrastructureBreaker>(), sp.GetRequiredService<IOptions<RabbitMqOptions>>().Value, sp.GetRequiredService<Microsoft.Extensions.Logging.ILogger<RateLimitLanes>>()));
        return services;
    }
}
