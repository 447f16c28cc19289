using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using Notifications.Shared.Unsubscribe;

namespace Notifications.Shared.Hosting;

/// <summary>DI wiring of the unsubscribe tokens' key ring, for the process that makes them (consumer) and the one that reads them (unsubscribe).</summary>
public static class UnsubscribeTokenHostingExtensions
{
    /// <summary>Validated <see cref="UnsubscribeKeyOptions"/> from section <c>Unsubscribe</c> and an <see cref="UnsubscribeToken"/> over them.</summary>
    public static IServiceCollection AddUnsubscribeTokens(this IServiceCollection services)
    {
        services.AddOptions<UnsubscribeKeyOptions>().BindConfiguration(UnsubscribeKeyOptions.SectionName)
            .ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton<IValidateOptions<UnsubscribeKeyOptions>, UnsubscribeKeyOptionsValidator>();
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton(sp => new UnsubscribeToken(sp.GetRequiredService<IOptions<UnsubscribeKeyOptions>>().Value, sp.GetRequiredService<TimeProvider>()));
        return services;
    }
}
