using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data.Operations;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Data.SqlServer;
using Npgsql;

namespace Notifications.Shared.Hosting;

/// <summary>DI wiring of the stores behind the operators' operations (the admin tool and the console): search, dead-letter groups, bulk jobs.</summary>
public static class OperationsStoreHostingExtensions
{
    /// <summary>The notification search, dead-letter group and admin job stores of the configured provider.</summary>
    public static IServiceCollection AddOperationsStores(this IServiceCollection services)
    {
        services.AddSingleton<INotificationSearchStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresNotificationSearchStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerNotificationSearchStore(Options(sp)),
        });
        services.AddSingleton<IDeadLetterGroupStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresDeadLetterGroupStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerDeadLetterGroupStore(Options(sp)),
        });
        services.AddSingleton<IAdminJobStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresAdminJobStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerAdminJobStore(Options(sp)),
        });
        return services;
    }

    private static DatabaseOptions Options(IServiceProvider sp) => sp.GetRequiredService<IOptions<DatabaseOptions>>().Value;
}
