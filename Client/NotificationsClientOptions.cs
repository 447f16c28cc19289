using System.Data.Common;

namespace Notifications.Client;

/// <summary>
/// What <see cref="NotificationsClientServiceCollectionExtensions.AddNotificationsClient"/> registers: the provider and its
/// connections (<c>UsePostgreSql</c> from <c>Notifications.Client.PostgreSql</c>, <c>UseSqlServer</c> from
/// <c>Notifications.Client.SqlServer</c>) and the schema.
/// </summary>
public sealed class NotificationsClientOptions
{
    /// <summary>The schema holding the outbox (default <c>notifications</c>, as the migrations create it).</summary>
    public string Schema { get; set; } = OutboxSchemaName.Default;

    internal IOutboxDialect? Dialect { get; private set; }

    internal Func<IServiceProvider, OutboxConnections>? Connections { get; private set; }

    /// <summary>Called by a provider package's <c>Use…</c> method: its dialect, and how to get its connections (the last call wins).</summary>
    internal NotificationsClientOptions Use(IOutboxDialect dialect, Func<IServiceProvider, DbDataSource> dataSource, bool ownsDataSource)
    {
        Dialect = dialect;
        Connections = services => new OutboxConnections(dataSource(services), ownsDataSource);
        return this;
    }
}
