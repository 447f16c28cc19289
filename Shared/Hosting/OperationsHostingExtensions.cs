using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Shared.Hosting;

/// <summary>DI wiring of what operators see: metrics, traces, health and the endpoint serving them.</summary>
public static class OperationsHostingExtensions
{
    /// <summary>
    /// Adds OpenTelemetry (<see cref="TelemetryHostingExtensions.AddNotificationsTelemetry"/>), the liveness and
    /// readiness checks, and the Kestrel endpoint (section <c>Metrics</c>) on <paramref name="defaultPort"/> unless configured.
    /// </summary>
    /// <param name="builder">The worker's host builder.</param>
    /// <param name="defaultPort">The endpoint's port unless <c>Metrics:Port</c> sets one.</param>
    /// <param name="serviceName">The worker's OpenTelemetry <c>service.name</c>.</param>
    /// <param name="meterName">The worker's meter, exported on <c>/metrics</c> (and by OTLP if configured).</param>
    public static IHostApplicationBuilder AddNotificationsOperations(this IHostApplicationBuilder builder, int defaultPort, string serviceName, string meterName)
    {
        AddEndpoint(builder, defaultPort, serviceName, meterName);
        // live: the process and its loop; ready: broker and database now; started: live, and ready at least once
        // (what Docker's healthcheck asks: see StartupHealthCheck). The startup check is a singleton: it remembers.
        builder.Services.AddSingleton(sp => Startup(sp, usesBroker: true));
        builder.Services.AddHealthChecks()
            .AddCheck<LoopHealthCheck>("loop", tags: ["live", "started"])
            .AddCheck<BrokerHealthCheck>("broker", tags: ["ready"])
            .AddCheck<DatabaseHealthCheck>("database", tags: ["ready"])
            .AddCheck<StartupHealthCheck>("startup", tags: ["started"]);
        return builder;
    }

    /// <summary>
    /// The same for a process that answers requests instead of running a loop (the unsubscribe server, the live gateway):
    /// live while the endpoint answers, ready while the database does (and its broker connection is open, when it holds one:
    /// <paramref name="usesBroker"/>, which it reports to <see cref="WorkerHealth.BrokerConnected"/>), started once it was ready.
    /// </summary>
    /// <param name="builder">The process's host builder.</param>
    /// <param name="defaultPort">The endpoint's port unless <c>Metrics:Port</c> sets one.</param>
    /// <param name="serviceName">The process's OpenTelemetry <c>service.name</c>.</param>
    /// <param name="meterName">The process's meter, exported on <c>/metrics</c> (and by OTLP if configured).</param>
    /// <param name="usesBroker">Whether the process holds a broker connection its readiness depends on.</param>
    public static IHostApplicationBuilder AddNotificationsServerOperations(
        this IHostApplicationBuilder builder, int defaultPort, string serviceName, string meterName, bool usesBroker = false)
    {
        AddEndpoint(builder, defaultPort, serviceName, meterName);
        builder.Services.AddSingleton(sp => Startup(sp, usesBroker));
        var checks = builder.Services.AddHealthChecks();
        if (usesBroker)
        {
            checks.AddCheck<BrokerHealthCheck>("broker", tags: ["ready"]);
        }

        checks.AddCheck<DatabaseHealthCheck>("database", tags: ["ready"])
            .AddCheck<StartupHealthCheck>("startup", tags: ["started"]);
        return builder;
    }

    private static void AddEndpoint(IHostApplicationBuilder builder, int defaultPort, string serviceName, string meterName)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddMetrics();
        builder.AddNotificationsTelemetry(serviceName, meterName);
        services.AddOptions<OperationsOptions>()
            .Configure(o => o.Port = defaultPort)
            .BindConfiguration(OperationsOptions.SectionName)
            .ValidateDataAnnotations()
            .Validate(o => IPAddress.TryParse(o.Address, out _), $"{OperationsOptions.SectionName}:Address must be an IP address (e.g. 127.0.0.1 or 0.0.0.0)")
            .ValidateOnStart();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<WorkerHealth>();
        services.AddSingleton<BreakerBoard>();
        services.AddSingleton<PresenceBoard>();
        services.AddSingleton<OperationsEndpoint>();
        services.AddHostedService(sp => sp.GetRequiredService<OperationsEndpoint>());
    }

    private static StartupHealthCheck Startup(IServiceProvider services, bool usesBroker) => new(
        services.GetRequiredService<WorkerHealth>(), services.GetRequiredService<IOptions<DatabaseOptions>>(), services,
        services.GetRequiredService<TimeProvider>(), usesBroker);
}
