using System.Data.Common;
using Microsoft.Data.SqlClient;
using Notifications.Shared.Hosting;

namespace Notifications.Bounces.Effects;

/// <summary>The bounce receiver's statements on SQL Server.</summary>
internal sealed class SqlServerBounceDatabase(DatabaseOptions options) : IBounceDatabase
{
    public string DeliveredSql { get; } = $"""
        SELECT CASE WHEN EXISTS (SELECT 1 FROM [{options.Schema}].[delivery_log] WHERE notification_id = @Id) THEN 1 ELSE 0 END;
        """;

    // UPDLOCK, HOLDLOCK: two copies of one DSN at once insert one row, the second finds the first's.
    public string RecordOutcomeSql { get; } = $"""
        INSERT INTO [{options.Schema}].[notification_outcome] (notification_id, outcome, recipient, status, diagnostic)
        SELECT @Id, @Outcome, @Recipient, @Status, @Diagnostic
        WHERE NOT EXISTS (SELECT 1 FROM [{options.Schema}].[notification_outcome] WITH (UPDLOCK, HOLDLOCK)
                          WHERE notification_id = @Id AND outcome = @Outcome AND recipient = @Recipient);
        """;

    public string CountDeferredSql { get; } = $"""
        SELECT COUNT(*) FROM [{options.Schema}].[notification_outcome]
        WHERE recipient = @Recipient AND outcome = 'deferred' AND reported_at >= @Since;
        """;

    public async Task<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(options.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        return connection;
    }
}
