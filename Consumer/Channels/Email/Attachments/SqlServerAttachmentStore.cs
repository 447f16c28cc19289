using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Consumer.Channels.Email.Attachments;

/// <summary>The table <c>attachment</c> on SQL Server.</summary>
internal sealed class SqlServerAttachmentStore(DatabaseOptions options) : IAttachmentStore
{
    /// <summary>The read, reachable by the T-SQL parser tests.</summary>
    internal string LoadSql { get; } = $"""
        SELECT position AS Position, file_name AS FileName, content_type AS ContentType, content AS Content
        FROM [{options.Schema}].[attachment] WHERE notification_id = @NotificationId ORDER BY position;
        """;

    public async Task<IReadOnlyList<AttachedFile>> LoadAsync(long notificationId, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(options.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        var files = await connection.QueryAsync<AttachedFile>(new CommandDefinition(
            LoadSql, new { NotificationId = notificationId }, commandTimeout: (int)options.CommandTimeout.TotalSeconds, cancellationToken: cancellationToken));
        return files.AsList();
    }
}
