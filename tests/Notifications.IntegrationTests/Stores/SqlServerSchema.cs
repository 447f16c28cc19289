using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Stores;

/// <summary>
/// A fresh schema on the SQL Server named by NOTIFICATIONS_TEST_SQLSERVER, migrated from db/sqlserver for
/// this run of the suite and dropped afterwards. Without the variable every test of the suite fails with
/// the instructions below; scripts/test excludes the suite (trait Category=SqlServer) when it is unset.
/// </summary>
public sealed class SqlServerSchema : IAsyncLifetime
{
    public const string Variable = "NOTIFICATIONS_TEST_SQLSERVER";

    public string ConnectionString { get; } = Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } value
        ? value
        : throw new InvalidOperationException(
            $"{Variable} is not set. The SQL Server store suite needs a real SQL Server 2019 or later: set it to a "
            + "connection string (e.g. Server=127.0.0.1,1433;User ID=sa;Password=...;TrustServerCertificate=true;Database=notifications_test) "
            + "or run scripts/test, which excludes this suite when the variable is unset.");

    public string Name { get; } = $"nt_{Guid.NewGuid():N}"[..15];

    public async Task InitializeAsync()
    {
        await using var connection = await OpenAsync();
        await SqlServerMigrator.ApplyAsync(connection, Name);
    }

    public async Task DisposeAsync()
    {
        await using var connection = await OpenAsync();
        await connection.ExecuteAsync($"""
            DROP FUNCTION IF EXISTS [{Name}].[notification_status];
            DROP TABLE IF EXISTS [{Name}].[outbox], [{Name}].[delivery_log], [{Name}].[rejected], [{Name}].[dead_letter], [{Name}].[retention];
            DROP SCHEMA IF EXISTS [{Name}];
            """);
    }

    public async Task<SqlConnection> OpenAsync()
    {
        var connection = new SqlConnection(ConnectionString);
        await connection.OpenAsync();
        return connection;
    }

    public async Task CleanAsync()
    {
        await using var connection = await OpenAsync();
        await connection.ExecuteAsync(
            $"TRUNCATE TABLE [{Name}].[outbox]; TRUNCATE TABLE [{Name}].[delivery_log]; TRUNCATE TABLE [{Name}].[rejected];");
    }

    /// <summary>Inserts <paramref name="count"/> valid notifications in one statement; returns their ids, oldest first.</summary>
    public async Task<IReadOnlyList<long>> InsertAsync(int count)
    {
        await using var connection = await OpenAsync();
        // INSERT ... SELECT ... ORDER BY assigns identity values in that order; OUTPUT's order is not guaranteed.
        var ids = await connection.QueryAsync<long>($"""
            INSERT INTO [{Name}].[outbox] (recipient, subject, body)
            OUTPUT INSERTED.id
            SELECT CONCAT('user', g.n, '@example.com'), CONCAT('Order shipped #', g.n),
                   CONCAT('Hello,', CHAR(10), 'your order ', g.n, ' has shipped.')
            FROM (SELECT TOP (@count) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS n
                  FROM sys.all_columns AS a CROSS JOIN sys.all_columns AS b) AS g
            ORDER BY g.n;
            """, new { count });
        return ids.Order().ToList();
    }
}
