using Dapper;
using DbUp;
using DbUp.Builder;
using DbUp.Engine;
using Npgsql;
using Polly;
using Polly.Retry;

namespace Notifications.Admin.Migrations;

/// <summary>PostgreSQL: dbup-postgresql, psql's <c>:"schema"</c>, a session advisory lock per schema.</summary>
internal sealed class PostgresMigrationDialect : IMigrationDialect
{
    public string Name => "PostgreSQL";

    // hashtextextended: a stable 64-bit key per schema; the session lock goes when the connection closes. Tried, not
    // waited for in the server: a query waiting for the lock holds a snapshot, and the holder's CREATE INDEX
    // CONCURRENTLY (008) waits for every older snapshot to end, so it would wait for its waiter forever.
    internal static string LockSql => "SELECT pg_try_advisory_lock(hashtextextended('notifications-migrate:' || @Schema, 0))";

    // Until the other migrate ends, however long its migrations take.
    private static readonly ResiliencePipeline<bool> UntilLocked = new ResiliencePipelineBuilder<bool>()
        .AddRetry(new RetryStrategyOptions<bool>
        {
            ShouldHandle = new PredicateBuilder<bool>().HandleResult(false),
            MaxRetryAttempts = int.MaxValue,
            BackoffType = DelayBackoffType.Constant,
            Delay = TimeSpan.FromMilliseconds(500),
            UseJitter = true,
        })
        .Build();

    internal static string JournalExistsSql => "SELECT to_regclass(@Table) IS NOT NULL";

    public UpgradeEngineBuilder Engine(string connectionString, string schema) =>
        DeployChanges.To.PostgresqlDatabase(connectionString, schema).JournalToPostgresqlTable(schema, Migrator.JournalTable);

    public IScriptPreprocessor Variables(string schema) => new PsqlVariables(new Dictionary<string, string> { ["schema"] = schema });

    public async Task<IAsyncDisposable> LockAsync(string connectionString, string schema, CancellationToken cancellationToken)
    {
        // Not pooled: closing a pooled connection would keep its session, and the lock, for the next user of the pool.
        var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
        try
        {
            await connection.OpenAsync(cancellationToken);
            await UntilLocked.ExecuteAsync(
                async ct => await connection.ExecuteScalarAsync<bool>(new CommandDefinition(LockSql, new { Schema = schema }, cancellationToken: ct)),
                cancellationToken);
            return connection;
        }
        catch
        {
            await connection.DisposeAsync();
            throw;
        }
    }

    public async Task<IReadOnlyList<(string Name, DateTime Applied)>> JournalAsync(string connectionString, string schema, CancellationToken cancellationToken)
    {
        string table = $"\"{schema}\".{Migrator.JournalTable}";
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        if (!await connection.ExecuteScalarAsync<bool>(new CommandDefinition(JournalExistsSql, new { Table = table }, cancellationToken: cancellationToken)))
        {
            return [];
        }

        // dbup-postgresql's journal numbers its rows (schemaversionsid, a serial): the order they were written.
        var rows = await connection.QueryAsync<(string Name, DateTime Applied)>(
            new CommandDefinition($"SELECT scriptname, applied FROM {table} ORDER BY schemaversionsid", cancellationToken: cancellationToken));
        return rows.AsList();
    }
}
