using System.Diagnostics.Metrics;
using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Notifications.Shared.Observability;

namespace Notifications.Shared.Hosting;

/// <summary>DI wiring of what operators see: metrics, health and the endpoint serving them.</summary>
public static class OperationsHostingExtensions
{
    /// <summary>
    /// Adds the metrics collector over this host's meters, the liveness and readiness checks, and the
    /// Kestrel endpoint (section <c>Metrics</c>) on <paramref name="defaultPort"/> unless configured.
    /// </summary>
    public static IHostApplicationBuilder AddNotificationsOperations(this IHostApplicationBuilder builder, int defaultPort)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddMetrics();
        services.AddOptions<OperationsOptions>()
            .Configure(o => o.Port = defaultPort)
            .BindConfiguration(OperationsOptions.SectionName)
            .ValidateDataAnnotations()
            .Validate(o => IPAddress.TryParse(o.Address, out _), $"{OperationsOptions.SectionName}:Address must be an IP address (e.g. 127.0.0.1 or 0.0.0.0)")
            .ValidateOnStart();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<WorkerHealth>();
        services.AddSingleton(sp => new MetricsCollector(sp.GetRequiredService<IMeterFactory>()));
        services.AddHealthChecks()
            .AddCheck<LoopHealthCheck>("loop", tags: ["live"])
            .AddCheck<BrokerHealthCheck>("broker", tags: ["ready"])
            .AddCheck<DatabaseHealthCheck>("database", tags: ["ready"]);
        services.AddSingleton<OperationsEndpoint>();
        services.AddHostedService(sp => sp.GetRequiredService<OperationsEndpoint>());
        return builder;
    }
}
