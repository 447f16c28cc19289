using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Containers;
using Notifications.Shared.Hosting;
using Testcontainers.MsSql;

namespace Notifications.IntegrationTests.Stores;

/// <summary>
/// A fresh schema on a real SQL Server, migrated by notifications-admin migrate's migrator (db/sqlserver) for this run of the suite and dropped
/// afterwards. The server: the connection string in NOTIFICATIONS_TEST_SQLSERVER, or else one started for
/// the suite with Testcontainers.MsSql (image NOTIFICATIONS_TEST_SQLSERVER_IMAGE, default
/// mcr.microsoft.com/mssql/server:2022-latest) and removed afterwards. When neither can be had every test
/// of the suite fails with the reason; scripts/test excludes the suite (trait Category=SqlServer) and says
/// NOT RUN when it knows beforehand that neither can be had.
/// </summary>
public sealed class SqlServerSchema : IAsyncLifetime
{
    public const string Variable = "NOTIFICATIONS_TEST_SQLSERVER";

    private MsSqlContainer? _container;
    private string? _connectionString;

    public string ConnectionString => _connectionString ?? throw new InvalidOperationException("The SQL Server schema is not initialized.");

    public string Name { get; } = $"nt_{Guid.NewGuid():N}"[..15];

    public async Task InitializeAsync()
    {
        if (Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } value)
        {
            ServiceLog.Note("SQL Server", $"{Variable} from the environment");
            _connectionString = value;
        }
        else
        {
            _connectionString = await StartContainerAsync();
        }

        await TestMigrations.MigrateAsync(ConnectionString, DatabaseProvider.SqlServer, Name);
    }

    public async Task DisposeAsync()
    {
        if (_container is not null)
        {
            await _container.DisposeAsync();
            return;
        }

        if (_connectionString is null)
        {
            return;
        }

        await using var connection = await OpenAsync();
        await connection.ExecuteAsync($"""
            DROP FUNCTION IF EXISTS [{Name}].[notification_status];
            DROP TABLE IF EXISTS [{Name}].[outbox], [{Name}].[delivery_log], [{Name}].[rejected], [{Name}].[dead_letter], [{Name}].[retention], [{Name}].[idempotency_key],
                [{Name}].[rate_limit], [{Name}].[template], [{Name}].[suppression], [{Name}].[webhook_endpoint], [{Name}].[migration_journal];
            DROP SCHEMA IF EXISTS [{Name}];
            """);
    }

    private async Task<string> StartContainerAsync()
    {
        string image = ContainerImages.SqlServer;
        _container = new MsSqlBuilder(image).WithCreateParameterModifier(Loopback.PublishOnly).Build();
        try
        {
            await _container.StartAsync();
        }
        catch (Exception e)
        {
            throw new InvalidOperationException(
                $"{Variable} is not set, so the SQL Server store suite starts SQL Server with Testcontainers from image '{image}', which failed: {e.Message} "
                + $"Either make a Docker engine reachable that can pull that image, or set {Variable} to a connection string of a SQL Server 2019 or later "
                + "(e.g. Server=127.0.0.1,1433;User ID=sa;Password=...;TrustServerCertificate=true;Database=notifications_test).", e);
        }

        ServiceLog.Note("SQL Server", $"Testcontainers, image {image}, container {_container.Id[..12]}");
        return new SqlConnectionStringBuilder(_container.GetConnectionString())
        {
            DataSource = $"{Loopback.Host},{_container.GetMappedPublicPort(MsSqlBuilder.MsSqlPort)}",
        }.ConnectionString;
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
            $"TRUNCATE TABLE [{Name}].[outbox]; TRUNCATE TABLE [{Name}].[delivery_log]; TRUNCATE TABLE [{Name}].[rejected]; TRUNCATE TABLE [{Name}].[dead_letter]; TRUNCATE TABLE [{Name}].[idempotency_key]; TRUNCATE TABLE [{Name}].[suppression]; TRUNCATE TABLE [{Name}].[live_pending];");
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
