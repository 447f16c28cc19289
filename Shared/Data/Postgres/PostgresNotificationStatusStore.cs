using Dapper;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Data.Postgres;

/// <summary>A notification's status on PostgreSQL: the schema's <c>notification_status(id)</c> function.</summary>
internal sealed class PostgresNotificationStatusStore : INotificationStatusStore
{
    private readonly NpgsqlDataSource _dataSource;
    private readonly int _timeoutSeconds;
    private readonly string _statusSql;

    public PostgresNotificationStatusStore(NpgsqlDataSource dataSource, DatabaseOptions options)
    {
        _dataSource = dataSource;
        _timeoutSeconds = (int)options.CommandTimeout.TotalSeconds;
        _statusSql = $"""
            SELECT notification_id AS NotificationId, state AS State, at AS At, attempts AS Attempts,
                   not_before AS NotBefore, reason AS Reason, detail AS Detail
            FROM "{options.Schema}".notification_status(@Id)
            """;
    }

    public async Task<NotificationStatus> GetAsync(long id, CancellationToken cancellationToken)
    {
        await using var connection = await _dataSource.OpenConnectionAsync(cancellationToken);
        var row = await connection.QuerySingleAsync<Row>(
            new CommandDefinition(_statusSql, new { Id = id }, commandTimeout: _timeoutSeconds, cancellationToken: cancellationToken));
        return new NotificationStatus(row.NotificationId, row.State, Utc(row.At), row.Attempts, Utc(row.NotBefore), row.Reason, row.Detail);
    }

    // Npgsql reads timestamptz as a UTC DateTime.
    private static DateTimeOffset? Utc(DateTime? value) => value is { } v ? new DateTimeOffset(DateTime.SpecifyKind(v, DateTimeKind.Utc)) : null;

    private sealed class Row
    {
        public long NotificationId { get; set; }

        public string State { get; set; } = "";

        public DateTime? At { get; set; }

        public int? Attempts { get; set; }

        public DateTime? NotBefore { get; set; }

        public string? Reason { get; set; }

        public string Detail { get; set; } = "";
    }
}
