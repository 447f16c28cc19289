using Microsoft.Extensions.DependencyInjection;
using Notifications.Shared.Outcomes;

namespace Notifications.Consumer.Outcomes;

/// <summary>DI wiring of the outcome events: the subscriptions' cache and its refresh, the writer.</summary>
internal static class OutcomeHostingExtensions
{
    public static IServiceCollection AddOutcomeEvents(this IServiceCollection services)
    {
        services.AddSingleton<OutcomeSubscriptions>();
        services.AddHostedService<OutcomeSubscriptionRefreshService>();
        services.AddSingleton<OutcomeEventWriter>();
        return services;
    }
}
