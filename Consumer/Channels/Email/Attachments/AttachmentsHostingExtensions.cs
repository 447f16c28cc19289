using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Consumer.Channels.Email.Attachments;

/// <summary>DI wiring of the attached files' reader, in the configured dialect.</summary>
internal static class AttachmentsHostingExtensions
{
    public static IServiceCollection AddAttachedFiles(this IServiceCollection services)
    {
        services.AddSingleton<IAttachmentStore>(sp =>
        {
            var database = sp.GetRequiredService<IOptions<DatabaseOptions>>().Value;
            return database.Provider == DatabaseProvider.Postgres
                ? new PostgresAttachmentStore(sp.GetRequiredService<NpgsqlDataSource>(), database)
                : new SqlServerAttachmentStore(database);
        });
        services.AddSingleton<AttachedFiles>();
        return services;
    }
}
