using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Notifications.Shared.Observability;
using Notifications.Shared.Outcomes;

namespace Notifications.Gateway;

/// <summary>
/// DI wiring of the gateway: the database, the broker, the token check, the node's presence, the outcome events, the public
/// server and the operations endpoint.
/// </summary>
public static class GatewayHostingExtensions
{
    /// <summary>The operations endpoint's port (<c>/metrics</c>, <c>/health/*</c>) unless <c>Metrics:Port</c> sets one.</summary>
    public const int MetricsPort = 9467;

    /// <summary>Adds the gateway and everything it needs.</summary>
    public static IHostApplicationBuilder AddGateway(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddRabbitMqOptions().AddNotificationsDatabase("notifications-gateway", DatabaseOptions.ConsumerPoolSize);
        services.AddOptions<GatewayOptions>().BindConfiguration(GatewayOptions.SectionName)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        services.AddSingleton<IValidateOptions<GatewayOptions>, GatewayOptionsValidator>();
        services.AddOptions<LiveCapOptions>().BindConfiguration(LiveCapOptions.SectionName)
            .ValidateDataAnnotations()
            .ValidateOnStart();
        // Ready: the node's broker connection open (its queue consuming: LiveRouter reports it), the database answering, and
        // the public port listening.
        builder.AddNotificationsServerOperations(MetricsPort, "notifications-gateway", GatewayMetrics.MeterName, usesBroker: true);
        services.AddHealthChecks().AddCheck<LiveServerHealthCheck>("live-server", tags: ["ready", "started"]);
        services.AddSingleton<GatewayMetrics>();
        services.AddSingleton<LiveTokenCheck>();
        // The node's queue first: a client's connection binds it.
        services.AddSingleton<LiveRouter>();
        services.AddHostedService(sp => sp.GetRequiredService<LiveRouter>());
        // Its connected subscribers are served on the operations endpoint's /presence (the operators' console reads them).
        services.AddSingleton(sp =>
        {
            var presence = ActivatorUtilities.CreateInstance<Presence>(sp);
            sp.GetRequiredService<PresenceBoard>().Serve(presence.Snapshot);
            return presence;
        });
        // The outcome event types subscribed (an ack writes notification.acked only when one is), and the expiry sweep.
        services.AddSingleton<OutcomeSubscriptions>();
        services.AddHostedService<LiveOutcomeService>();
        services.AddSingleton<LivePendingRows>();
        services.AddSingleton<LiveBroadcastDelivery>();
        // Its background loop unbinds the subscribers that did not come back (Gateway:UnbindAfter).
        services.AddHostedService(sp => sp.GetRequiredService<Presence>());
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton<LiveServer>();
        services.AddHostedService(sp => sp.GetRequiredService<LiveServer>());
        return builder;
    }
}
