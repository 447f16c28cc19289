using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Consumer.Channels.Email.Attachments;

/// <summary>The table <c>attachment</c> on PostgreSQL.</summary>
internal sealed class PostgresAttachmentStore(NpgsqlDataSource dataSource, DatabaseOptions options) : IAttachmentStore
{
    private readonly string _loadSql = $"""
        SELECT position AS Position, file_name AS FileName, content_type AS ContentType, content AS Content
        FROM "{options.Schema}".attachment WHERE notification_id = @NotificationId ORDER BY position
        """;

    public async Task<IReadOnlyList<AttachedFile>> LoadAsync(long notificationId, CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        var files = await connection.QueryAsync<AttachedFile>(new CommandDefinition(
            _loadSql, new { NotificationId = notificationId }, commandTimeout: (int)options.CommandTimeout.TotalSeconds, cancellationToken: cancellationToken));
        return files.AsList();
    }
}
