using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Data.SqlServer;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Templates;

/// <summary>DI wiring of the template store and renderer (the consumer and the admin tool).</summary>
public static class TemplateHostingExtensions
{
    /// <summary>Adds <see cref="ITemplateStore"/> for the configured dialect and one <see cref="TemplateRenderer"/>; needs AddNotificationsDatabase.</summary>
    public static IServiceCollection AddTemplates(this IServiceCollection services)
    {
        services.AddSingleton<ITemplateStore>(sp => Options(sp).Provider switch
        {
            DatabaseProvider.Postgres => new PostgresTemplateStore(sp.GetRequiredService<NpgsqlDataSource>(), Options(sp)),
            _ => new SqlServerTemplateStore(Options(sp)),
        });
        services.AddSingleton<TemplateRenderer>();
        return services;
    }

    private static DatabaseOptions Options(IServiceProvider services) => services.GetRequiredService<IOptions<DatabaseOptions>>().Value;
}
