using Dapper;
using Notifications.Shared.Hosting;
using Microsoft.Extensions.Options;
using Npgsql;

namespace Notifications.Gateway;

/// <summary>A live notification waiting for its client's ack (table <c>live_pending</c>, db/*/032_live.sql).</summary>
internal sealed record PendingNotification(long Id, string? Subject, string? Body, string? Data);

/// <summary>
/// The pending notifications of a subscriber, on PostgreSQL: read in id order on connect, deleted by the client's ack.
/// Pending state is the database's, so it survives a gateway's crash and a client may reconnect to any node.
/// </summary>
internal sealed class PendingStore(NpgsqlDataSource dataSource, IOptions<DatabaseOptions> options)
{
    private readonly string _pendingSql = $"""
        SELECT notification_id AS Id, subject AS Subject, body AS Body, data AS Data FROM "{options.Value.Schema}".live_pending
        WHERE subscriber_id = @Subscriber AND (expires_at IS NULL OR expires_at > now())
        ORDER BY notification_id LIMIT @Max
        """;

    private readonly string _ackSql = $"""
        DELETE FROM "{options.Value.Schema}".live_pending WHERE subscriber_id = @Subscriber AND notification_id = @Id
        """;

    /// <summary>The subscriber's unacked, unexpired notifications, oldest first, at most <paramref name="max"/>.</summary>
    public async Task<IReadOnlyList<PendingNotification>> PendingAsync(string subscriber, int max, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        return (await connection.QueryAsync<PendingNotification>(new CommandDefinition(
            _pendingSql, new { Subscriber = subscriber, Max = max }, cancellationToken: cancellationToken))).AsList();
    }

    /// <summary>The client acked <paramref name="id"/>: true when it was the subscriber's and pending.</summary>
    public async Task<bool> AckAsync(string subscriber, long id, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        return await connection.ExecuteAsync(new CommandDefinition(_ackSql, new { Subscriber = subscriber, Id = id }, cancellationToken: cancellationToken)) == 1;
    }
}
