using System.Data.Common;
using Microsoft.Extensions.Logging;

namespace Notifications.Client;

/// <summary>The registered <see cref="INotificationOutbox"/>: one dialect, one schema, one source of connections.</summary>
internal sealed class DbNotificationOutbox(IOutboxDialect dialect, string schema, OutboxConnections connections, ILogger logger) : INotificationOutbox
{
    public Task<long> EnqueueAsync(DbTransaction transaction, NewNotification notification, CancellationToken cancellationToken = default)
    {
        OutboxDialects.CheckTransaction(dialect, transaction);
        return NotificationOutbox.EnqueueCheckedAsync(dialect, transaction, OutboxValues.Of(notification), schema, logger, cancellationToken);
    }

    public async Task<long> EnqueueAsync(NewNotification notification, CancellationToken cancellationToken = default)
    {
        var values = OutboxValues.Of(notification);
        await using var connection = await connections.OpenAsync(cancellationToken);
        await using var transaction = await connection.BeginTransactionAsync(cancellationToken);
        long id = await NotificationOutbox.EnqueueCheckedAsync(dialect, transaction, values, schema, logger, cancellationToken);
        await transaction.CommitAsync(cancellationToken);
        return id;
    }

    public async Task<NotificationStatus> GetStatusAsync(long id, CancellationToken cancellationToken = default)
    {
        await using var connection = await connections.OpenAsync(cancellationToken);
        return await NotificationStatusReader.ReadAsync(connection, dialect.StatusSql(schema), id, cancellationToken);
    }
}
