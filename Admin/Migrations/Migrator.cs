using System.Diagnostics;
using DbUp.Engine;
using Notifications.Shared.Hosting;

namespace Notifications.Admin.Migrations;

/// <summary>
/// Applies the migrations to one schema with DbUp and keeps its journal (<c>schema.migration_journal</c>: one row per
/// numbered file by file name, one per run of a repeatable file's text; the text run last is the one in force). Each statement runs in its own transaction, as
/// psql and sqlcmd run the files (a file that needs one transaction says BEGIN/COMMIT itself), so a constraint added
/// NOT VALID is committed before its validation scans. A file is journaled when all of it ran; a failed file is not,
/// and every file is written to be re-runnable, so the next <c>migrate</c> after the fix runs it whole again.
/// </summary>
internal sealed class Migrator(IMigrationDialect dialect, string connectionString, string schema, MigrationScripts scripts)
{
    /// <summary>The journal's table, in the migrated schema.</summary>
    public const string JournalTable = "migration_journal";

    public string Database => dialect.Name;

    public string Schema => schema;

    public MigrationScripts Scripts => scripts;

    public static Migrator For(DatabaseOptions options, MigrationScripts? scripts = null)
    {
        IMigrationDialect dialect = options.Provider == DatabaseProvider.SqlServer ? new SqlServerMigrationDialect() : new PostgresMigrationDialect();
        // On PostgreSQL without GSS session encryption, as the workers connect: the admin image has no Kerberos library
        // and every migrate printed "Cannot load library libgssapi_krb5.so.2" (PostgresConnectionDefaults).
        string connectionString = options.Provider == DatabaseProvider.SqlServer
            ? options.ConnectionString
            : PostgresConnectionDefaults.GssOff(options.ConnectionString);
        return new Migrator(dialect, connectionString, options.Schema, scripts ?? MigrationScripts.Embedded(options.Provider));
    }

    /// <summary>The connection string the migrations run on.</summary>
    internal string ConnectionString => connectionString;

    /// <summary>Every script of this version and every journal row without one, in run order; changes nothing.</summary>
    public async Task<IReadOnlyList<MigrationState>> ListAsync(CancellationToken cancellationToken)
    {
        // Of a repeatable file, the text applied last only (JournalInForce): one applied before and replaced since is changed.
        var journal = JournalInForce.Of(await dialect.JournalAsync(connectionString, schema, cancellationToken));
        var appliedFiles = journal.Keys.Select(MigrationScripts.FileOf).ToHashSet(StringComparer.Ordinal);
        var states = scripts.Scripts.Select(script => journal.TryGetValue(script.Name, out var at)
            ? new MigrationState(script.Name, MigrationStatus.Applied, at)
            : new MigrationState(script.Name, appliedFiles.Contains(MigrationScripts.FileOf(script.Name)) ? MigrationStatus.Changed : MigrationStatus.Pending, null)).ToList();
        var files = scripts.Scripts.Select(s => MigrationScripts.FileOf(s.Name)).ToHashSet(StringComparer.Ordinal);
        states.AddRange(journal.Where(row => !files.Contains(MigrationScripts.FileOf(row.Key)))
            .OrderBy(row => row.Key, StringComparer.Ordinal)
            .Select(row => new MigrationState(row.Key, MigrationStatus.Unknown, row.Value)));
        return states;
    }

    /// <summary>
    /// Runs what the journal lacks, in order, under the schema's migration lock; <paramref name="applied"/> hears of each
    /// script as it is journaled, with how long it took. Stops at the first failure.
    /// </summary>
    public async Task<MigrationRun> RunAsync(Action<string, TimeSpan> applied, CancellationToken cancellationToken)
    {
        // Up to date (the common case: every scripts/setup, every deploy without a new migration): one look at the
        // journal, no lock, no DbUp. Safe without the lock: a journal holding every script cannot lose one.
        if (!(await ListAsync(cancellationToken)).Any(s => s.Status is MigrationStatus.Pending or MigrationStatus.Changed))
        {
            return new MigrationRun([], null, null);
        }

        await using var migrationLock = await dialect.LockAsync(connectionString, schema, cancellationToken);
        // Read again under the lock: what another migrate applied meanwhile is in force too.
        var inForce = JournalInForce.Of(await dialect.JournalAsync(connectionString, schema, cancellationToken)).Keys.ToList();
        var builder = dialect.Engine(connectionString, schema);
        builder.Configure(c => c.Journal = JournalInForce.Over(c.Journal, inForce));
        var engine = builder
            .WithScripts(scripts.Scripts)
            .WithScriptNameComparer(StringComparer.Ordinal)
            .WithVariablesDisabled()
            .WithPreprocessor(dialect.Variables(schema))
            .WithoutTransaction()
            // No command timeout: validating a constraint or building an index on a large table takes what it takes.
            .WithExecutionTimeout(TimeSpan.Zero)
            .LogToNowhere()
            .Build();
        var stopwatch = Stopwatch.StartNew();
        engine.ScriptExecuted += (_, e) =>
        {
            applied(((ScriptExecutedEventArgs)e).Script.Name, stopwatch.Elapsed);
            stopwatch.Restart();
        };

        // DbUp is synchronous: off the caller's thread, not cancellable once started (a half-run file is worse).
        var result = await Task.Run(engine.PerformUpgrade, CancellationToken.None);
        return new MigrationRun(result.Scripts.Select(s => s.Name).ToList(), result.Successful ? null : result.ErrorScript?.Name, result.Error);
    }
}

/// <summary>What one <c>migrate</c> did: the scripts it applied, and the one that failed with its error.</summary>
internal sealed record MigrationRun(IReadOnlyList<string> Applied, string? FailedScript, Exception? Error)
{
    public bool Successful => Error is null;
}
