using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>A notification's status on SQL Server: the schema's inline table-valued function <c>notification_status(@id)</c>.</summary>
internal sealed class SqlServerNotificationStatusStore : INotificationStatusStore
{
    private readonly string _connectionString;
    private readonly int _timeoutSeconds;

    public SqlServerNotificationStatusStore(DatabaseOptions options)
    {
        _connectionString = options.ConnectionString;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        StatusSql = $"""
            SELECT notification_id AS NotificationId, state AS State, at AS At, attempts AS Attempts,
                   not_before AS NotBefore, reason AS Reason, detail AS Detail
            FROM [{options.Schema}].[notification_status](@Id);
            """;
    }

    internal string StatusSql { get; }

    public async Task<NotificationStatus> GetAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(_connectionString);
        var row = await connection.QuerySingleAsync<Row>(
            new CommandDefinition(StatusSql, new { Id = id }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return new NotificationStatus(row.NotificationId, row.State, row.At, row.Attempts, row.NotBefore, row.Reason, row.Detail);
    }

    private sealed class Row
    {
        public long NotificationId { get; set; }

        public string State { get; set; } = "";

        public DateTimeOffset? At { get; set; }

        public int? Attempts { get; set; }

        public DateTimeOffset? NotBefore { get; set; }

        public string? Reason { get; set; }

        public string Detail { get; set; } = "";
    }
}
