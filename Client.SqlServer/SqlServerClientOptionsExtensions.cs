using Microsoft.Data.SqlClient;
using Notifications.Client.SqlServer;

namespace Notifications.Client;

/// <summary>SQL Server for <see cref="NotificationsClientServiceCollectionExtensions.AddNotificationsClient"/>.</summary>
public static class SqlServerClientOptionsExtensions
{
    /// <summary>The outbox is on SQL Server at <paramref name="connectionString"/> (a login in the <c>notifications_app</c> role); SqlClient pools the connections.</summary>
    public static NotificationsClientOptions UseSqlServer(this NotificationsClientOptions options, string connectionString)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrWhiteSpace(connectionString);
        return options.UseSqlServer(_ => new SqlConnection(connectionString));
    }

    /// <summary>
    /// The outbox is on SQL Server through connections the app makes: <paramref name="connectionFactory"/> returns a new,
    /// unopened <see cref="SqlConnection"/> each time it is called (e.g. with an access token set); the client opens and disposes it.
    /// </summary>
    public static NotificationsClientOptions UseSqlServer(this NotificationsClientOptions options, Func<IServiceProvider, SqlConnection> connectionFactory)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(connectionFactory);
        return options.Use(SqlServerOutboxDialect.Instance, services => new SqlServerDataSource(() => connectionFactory(services)), ownsDataSource: true);
    }
}
