using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Notifications.Shared.Unsubscribe;

namespace Notifications.Unsubscribe;

/// <summary>DI wiring of the unsubscribe process: the key ring, the suppression table, the public server and the operations endpoint.</summary>
public static class UnsubscribeServerHostingExtensions
{
    /// <summary>The operations endpoint's port (<c>/metrics</c>, <c>/health/*</c>) unless <c>Metrics:Port</c> sets one.</summary>
    public const int MetricsPort = 9466;

    /// <summary>Adds the unsubscribe server and everything it needs.</summary>
    public static IHostApplicationBuilder AddUnsubscribeServer(this IHostApplicationBuilder builder)
    {
        ArgumentNullException.ThrowIfNull(builder);
        var services = builder.Services;
        services.AddNotificationsDatabase("notifications-unsubscribe", DatabaseOptions.UnsubscribePoolSize).AddUnsubscribeTokens();
        services.AddOptions<UnsubscribeKeyOptions>()
            .Validate(o => o.Keys.Count > 0, "Unsubscribe:Keys must hold the keys tokens are made with (Unsubscribe:Keys:<name>, 32 random bytes in base64)");
        services.AddOptions<UnsubscribeServerOptions>().BindConfiguration(UnsubscribeServerOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<IValidateOptions<UnsubscribeServerOptions>, UnsubscribeServerOptionsValidator>();
        builder.AddNotificationsServerOperations(MetricsPort, "notifications-unsubscribe", UnsubscribeMetrics.MeterName);
        services.AddSingleton<UnsubscribeMetrics>();
        services.AddSingleton<UnsubscribePages>();
        services.AddSingleton(sp => new LegacyUnsubscribeToken(
            UnsubscribeServerOptionsValidator.ReadLegacyKey(sp.GetRequiredService<IOptions<UnsubscribeServerOptions>>().Value)));
        services.AddSingleton<UnsubscribeRequests>();
        services.AddSingleton<UnsubscribeServer>();
        services.AddHostedService(sp => sp.GetRequiredService<UnsubscribeServer>());
        return builder;
    }
}
