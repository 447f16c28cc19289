using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Producer.FanOut;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Producer;

/// <summary>DI wiring of the producer worker.</summary>
public static class ProducerHostingExtensions
{
    /// <summary>Adds the outbox publisher loop and everything it needs.</summary>
    public static IHostApplicationBuilder AddProducer(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        builder.Services.AddOptions<ProducerOptions>().BindConfiguration(ProducerOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddRabbitMqOptions().AddNotificationsDatabase("notifications-producer", DatabaseOptions.ProducerPoolSize).AddFaultInjection();
        builder.AddNotificationsOperations(defaultPort: 9464, "notifications-producer", ProducerMetrics.MeterName);
        builder.Services.AddSingleton<ProducerMetrics>();
        builder.Services.AddSingleton<ProducerStats>();
        builder.Services.AddSingleton<ProducerTracing>();
        builder.Services.AddSingleton<BatchPublisher>();
        builder.Services.AddSingleton<UrgentWake>();
        builder.Services.AddOptions<FanOutOptions>().BindConfiguration(FanOutOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddSingleton<FanOutWake>();
        builder.Services.AddSingleton<FanOutStage>();
        builder.Services.AddSingleton<InClaimFanOut>();
        builder.Services.AddSingleton<WorkQueueDepth>();
        builder.Services.AddHostedService<OutboxPublisherService>();
        // The data source only on PostgreSQL: on SQL Server the listener logs that the urgent lane polls, and ends.
        builder.Services.AddHostedService(sp => new UrgentListenerService(
            sp.GetRequiredService<IOptions<DatabaseOptions>>().Value.Provider == DatabaseProvider.Postgres ? sp.GetRequiredService<NpgsqlDataSource>() : null,
            sp.GetRequiredService<UrgentWake>(), sp.GetRequiredService<IOptions<ProducerOptions>>(),
            sp.GetRequiredService<IOptions<DatabaseOptions>>(), sp.GetRequiredService<ILogger<UrgentListenerService>>()));
        builder.Services.AddHostedService<ProducerMonitorService>();
        return builder;
    }
}
