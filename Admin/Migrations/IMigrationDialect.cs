using DbUp.Builder;
using DbUp.Engine;

namespace Notifications.Admin.Migrations;

/// <summary>What differs between PostgreSQL and SQL Server for the migrator: DbUp's database, the scripts' variables, the lock, the journal's rows.</summary>
internal interface IMigrationDialect
{
    /// <summary>The database's name for the output.</summary>
    string Name { get; }

    /// <summary>DbUp's builder for <paramref name="schema"/>, its journal in <c>schema.migration_journal</c>.</summary>
    UpgradeEngineBuilder Engine(string connectionString, string schema);

    /// <summary>Substitutes the schema where the files' own tool (psql, sqlcmd) would.</summary>
    IScriptPreprocessor Variables(string schema);

    /// <summary>Waits for and holds the schema's migration lock (one migrator at a time), on a connection of its own.</summary>
    Task<IAsyncDisposable> LockAsync(string connectionString, string schema, CancellationToken cancellationToken);

    /// <summary>The journal's rows (script name, when it was applied) in the order they were written; none when there is no journal yet.</summary>
    Task<IReadOnlyList<(string Name, DateTime Applied)>> JournalAsync(string connectionString, string schema, CancellationToken cancellationToken);
}
