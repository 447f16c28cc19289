using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Email.Unsubscribe;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer.Suppression;

/// <summary>DI wiring of the suppression list (cache and refresh) and the List-Unsubscribe headers (their tokens' key ring).</summary>
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
        services.AddUnsubscribeTokens();
        services.AddSingleton<UnsubscribeLinks>();
        return services;
    }
}
