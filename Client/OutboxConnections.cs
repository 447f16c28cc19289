using System.Data.Common;

namespace Notifications.Client;

/// <summary>Where <see cref="DbNotificationOutbox"/> opens its connections; disposes the data source only if it made it.</summary>
internal sealed class OutboxConnections(DbDataSource dataSource, bool ownsDataSource) : IAsyncDisposable, IDisposable
{
    public ValueTask<DbConnection> OpenAsync(CancellationToken cancellationToken) => dataSource.OpenConnectionAsync(cancellationToken);

    public ValueTask DisposeAsync() => ownsDataSource ? dataSource.DisposeAsync() : ValueTask.CompletedTask;

    // Both: a container disposed synchronously refuses a singleton that is only IAsyncDisposable.
    public void Dispose()
    {
        if (ownsDataSource)
        {
            dataSource.Dispose();
        }
    }
}
