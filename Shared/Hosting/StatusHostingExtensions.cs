using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Data.SqlServer;
using Notifications.Shared.Retention;
using Npgsql;

namespace Notifications.Shared.Hosting;

/// <summary>DI wiring of the notification status: dead-letter records, the status function, the retention cleanup.</summary>
public static class StatusHostingExtensions
{
    /// <summary>The dead-letter, status, suppression, webhook endpoint, outcome event and retention stores of the configured provider, and the cleanup (not scheduled).</summary>
    public static IServiceCollection AddNotificationStatusStores(this IServiceCollection services)
    {
        services.AddSingleton<IDeadLetterStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresDeadLetterStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerDeadLetterStore(Options(sp)),
        });
        services.AddSingleton<INotificationStatusStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresNotificationStatusStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerNotificationStatusStore(Options(sp)),
        });
        services.AddSingleton<IRetentionStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresRetentionStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerRetentionStore(Options(sp)),
        });
        services.AddSingleton<ISuppressionStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresSuppressionStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerSuppressionStore(Options(sp)),
        });
        services.AddSingleton<IWebhookEndpointStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresWebhookEndpointStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerWebhookEndpointStore(Options(sp)),
        });
        services.AddSingleton<IOutcomeEventStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresOutcomeEventStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerOutcomeEventStore(Options(sp)),
        });
        services.AddSingleton<IAudienceStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresAudienceStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerAudienceStore(Options(sp)),
        });
        services.AddSingleton<IPreferenceStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresPreferenceStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerPreferenceStore(Options(sp)),
        });
        services.AddOptions<RetentionOptions>().BindConfiguration(RetentionOptions.SectionName).ValidateDataAnnotations().ValidateOnStart();
        services.AddSingleton(sp => sp.GetRequiredService<IOptions<RetentionOptions>>().Value);
        services.TryAddSingleton(TimeProvider.System);
        services.AddLogging();
        services.AddSingleton<RetentionCleanup>();
        return services;
    }

    /// <summary>Runs the retention cleanup in this worker (fleet-safe: see <see cref="RetentionService"/>).</summary>
    public static IServiceCollection AddRetentionCleanup(this IServiceCollection services)
    {
        services.AddHostedService<RetentionService>();
        return services;
    }

    private static DatabaseOptions Options(IServiceProvider sp) => sp.GetRequiredService<IOptions<DatabaseOptions>>().Value;
}
