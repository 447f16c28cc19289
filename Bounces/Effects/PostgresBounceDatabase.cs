using System.Data.Common;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Bounces.Effects;

/// <summary>The bounce receiver's statements on PostgreSQL.</summary>
internal sealed class PostgresBounceDatabase(NpgsqlDataSource dataSource, DatabaseOptions options) : IBounceDatabase
{
    public string DeliveredSql { get; } =
        $"""SELECT CASE WHEN EXISTS (SELECT FROM "{options.Schema}".delivery_log WHERE notification_id = @Id) THEN 1 ELSE 0 END""";

    public string RecordOutcomeSql { get; } = $"""
        INSERT INTO "{options.Schema}".notification_outcome (notification_id, outcome, recipient, status, diagnostic)
        VALUES (@Id, @Outcome, @Recipient, @Status, @Diagnostic)
        ON CONFLICT (notification_id, outcome, recipient) DO NOTHING
        """;

    public string CountDeferredSql { get; } = $"""
        SELECT count(*)::int FROM "{options.Schema}".notification_outcome
        WHERE recipient = @Recipient AND outcome = 'deferred' AND reported_at >= @Since
        """;

    public async Task<DbConnection> OpenAsync(CancellationToken cancellationToken) => await dataSource.OpenConnectionAsync(cancellationToken);
}
