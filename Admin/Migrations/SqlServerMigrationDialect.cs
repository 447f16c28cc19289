using System.Data;
using Dapper;
using DbUp;
using DbUp.Builder;
using DbUp.Engine;
using Microsoft.Data.SqlClient;

namespace Notifications.Admin.Migrations;

/// <summary>SQL Server: dbup-sqlserver (batches split on <c>GO</c>), sqlcmd's <c>$(Schema)</c>, an application lock per schema.</summary>
internal sealed class SqlServerMigrationDialect : IMigrationDialect
{
    public string Name => "SQL Server";

    // Owned by the session: released when the connection closes. -1: wait as long as another migrate runs.
    internal static string LockSql => """
        DECLARE @result int;
        EXEC @result = sp_getapplock @Resource = @Resource, @LockMode = 'Exclusive', @LockOwner = 'Session', @LockTimeout = -1;
        SELECT @result;
        """;

    internal static string JournalExistsSql => "SELECT CASE WHEN OBJECT_ID(@Table, N'U') IS NULL THEN 0 ELSE 1 END";

    // dbup-sqlserver's journal numbers its rows ([Id], an identity): the order they were written.
    internal static string JournalSql(string schema) => $"SELECT [ScriptName], [Applied] FROM [{schema}].[{Migrator.JournalTable}] ORDER BY [Id]";

    public UpgradeEngineBuilder Engine(string connectionString, string schema) =>
        DeployChanges.To.SqlDatabase(connectionString, schema).JournalToSqlTable(schema, Migrator.JournalTable);

    public IScriptPreprocessor Variables(string schema) => new SqlcmdVariables(new Dictionary<string, string> { ["Schema"] = schema });

    public async Task<IAsyncDisposable> LockAsync(string connectionString, string schema, CancellationToken cancellationToken)
    {
        // Not pooled: closing a pooled connection would keep its session, and the lock, for the next user of the pool.
        var connection = new SqlConnection(new SqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            int result = await connection.ExecuteScalarAsync<int>(new CommandDefinition(
                LockSql, new { Resource = new DbString { Value = $"notifications-migrate:{schema}", Length = 255 } }, commandTimeout: 0, cancellationToken: cancellationToken));
            return result >= 0 ? connection : throw new AdminException($"sp_getapplock answered {result}: the migration lock of schema {schema} was not granted", ExitCodes.Failed);
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    public async Task<IReadOnlyList<(string Name, DateTime Applied)>> JournalAsync(string connectionString, string schema, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        var table = new DbString { Value = $"[{schema}].[{Migrator.JournalTable}]", Length = 300 };
        if (await connection.ExecuteScalarAsync<int>(new CommandDefinition(JournalExistsSql, new { Table = table }, cancellationToken: cancellationToken)) == 0)
        {
            return [];
        }

        var rows = await connection.QueryAsync<(string Name, DateTime Applied)>(
            new CommandDefinition(JournalSql(schema), commandType: CommandType.Text, cancellationToken: cancellationToken));
        return rows.AsList();
    }
}
