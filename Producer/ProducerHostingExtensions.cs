using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Notifications.Shared.Hosting;

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
        builder.Services.AddRabbitMqOptions().AddNotificationsDatabase().AddFaultInjection();
        builder.AddNotificationsOperations(defaultPort: 9464, "notifications-producer", ProducerMetrics.MeterName);
        builder.Services.AddSingleton<ProducerMetrics>();
        builder.Services.AddSingleton<ProducerStats>();
        builder.Services.AddSingleton<ProducerTracing>();
        builder.Services.AddSingleton<BatchPublisher>();
        builder.Services.AddHostedService<OutboxPublisherService>();
        builder.Services.AddHostedService<ProducerMonitorService>();
        return builder;
    }
}
