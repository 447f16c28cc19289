using Npgsql;
using Notifications.Client.PostgreSql;

namespace Notifications.Client;

/// <summary>PostgreSQL for <see cref="NotificationsClientServiceCollectionExtensions.AddNotificationsClient"/>.</summary>
public static class PostgreSqlClientOptionsExtensions
{
    /// <summary>
    /// The outbox is on PostgreSQL at <paramref name="connectionString"/> (a login in the <c>notifications_app</c> role):
    /// the client makes its own <see cref="NpgsqlDataSource"/> (a connection pool) and disposes it with the container.
    /// </summary>
    public static NotificationsClientOptions UsePostgreSql(this NotificationsClientOptions options, string connectionString)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentException.ThrowIfNullOrWhiteSpace(connectionString);
        return options.Use(PostgresOutboxDialect.Instance, _ => NpgsqlDataSource.Create(connectionString), ownsDataSource: true);
    }

    /// <summary>
    /// The outbox is on PostgreSQL through the app's own <see cref="NpgsqlDataSource"/>, e.g.
    /// <c>sp =&gt; sp.GetRequiredService&lt;NpgsqlDataSource&gt;()</c>: one pool for the business writes and the
    /// notifications. The app keeps owning it.
    /// </summary>
    public static NotificationsClientOptions UsePostgreSql(this NotificationsClientOptions options, Func<IServiceProvider, NpgsqlDataSource> dataSource)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(dataSource);
        return options.Use(PostgresOutboxDialect.Instance, dataSource, ownsDataSource: false);
    }
}
