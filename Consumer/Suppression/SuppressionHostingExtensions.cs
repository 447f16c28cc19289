using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Email.Unsubscribe;
using Notifications.Shared.Observability;

namespace Notifications.Consumer.Suppression;

/// <summary>DI wiring of the suppression list (cache and refresh) and the unsubscribe headers and endpoint.</summary>
internal static class SuppressionHostingExtensions
{
    public static IServiceCollection AddSuppression(this IServiceCollection services)
    {
        services.AddOptions<SuppressionOptions>().BindConfiguration(SuppressionOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddOptions<UnsubscribeOptions>().BindConfiguration(UnsubscribeOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<IValidateOptions<UnsubscribeOptions>, UnsubscribeOptionsValidator>();
        services.AddSingleton(sp => new SuppressionCache(sp.GetRequiredService<IOptions<SuppressionOptions>>().Value.CacheEntries));
        services.AddSingleton<SuppressionMetrics>();
        services.AddSingleton<SuppressionList>();
        services.AddHostedService<SuppressionRefreshService>();
        services.AddSingleton<UnsubscribeLinks>();
        services.AddSingleton<UnsubscribeEndpoint>();
        services.AddSingleton(sp => new OperationsRoute(UnsubscribeEndpoint.Path, sp.GetRequiredService<UnsubscribeEndpoint>().HandleAsync));
        return services;
    }
}
