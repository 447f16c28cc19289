using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Hosting;

namespace Notifications.Admin.Operations;

/// <summary>DI wiring of the operators' operations for a host (the console): the same classes <c>admin</c> builds from its context.</summary>
internal static class AdminOperationsExtensions
{
    /// <summary>
    /// <see cref="NotificationStory"/>, <see cref="DeadLetterBulk"/>, <see cref="AdminJobRunner"/> (as <paramref name="owner"/>,
    /// unique per replica) and, with <paramref name="runJobs"/>, <see cref="AdminJobService"/>. Call after
    /// <see cref="AdminContext.AddAdminServices"/> (the options and every store these use).
    /// </summary>
    public static IServiceCollection AddAdminOperations(this IServiceCollection services, string owner, bool runJobs)
    {
        services.AddSingleton(sp => new AdminBroker(sp.GetRequiredService<IOptions<RabbitMqOptions>>().Value, "notifications-console"));
        services.AddSingleton(sp => new NotificationStory(
            sp.GetRequiredService<INotificationStatusStore>(), sp.GetRequiredService<INotificationSearchStore>(),
            sp.GetRequiredService<ILivePendingStore>(), sp.GetRequiredService<ILiveBroadcastStore>(), sp.GetRequiredService<IAudienceStore>()));
        services.AddSingleton(sp => new DeadLetterBulk(
            sp.GetRequiredService<AdminBroker>(), sp.GetRequiredService<IDeliveryLogStore>(),
            sp.GetRequiredService<IDeadLetterStore>(), sp.GetRequiredService<IDeadLetterGroupStore>()));
        services.AddSingleton(sp => new AdminJobRunner(
            sp.GetRequiredService<IAdminJobStore>(), sp.GetRequiredService<IDeadLetterGroupStore>(),
            sp.GetRequiredService<DeadLetterBulk>(), sp.GetRequiredService<AdminBroker>(), owner));
        if (runJobs)
        {
            services.AddHostedService<AdminJobService>();
        }

        return services;
    }
}
