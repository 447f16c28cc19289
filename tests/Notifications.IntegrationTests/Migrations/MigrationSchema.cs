using Dapper;
using Notifications.Admin;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Migrations;

/// <summary>
/// A schema of its own in the test database for one migrator test, migrated through <c>notifications-admin migrate</c>
/// (in process, as the owner) and dropped afterwards; optionally with a copy of db/postgres to add files to.
/// </summary>
internal sealed class MigrationSchema : IAsyncDisposable
{
    private readonly Lazy<string> _scripts = new(CopyScripts);

    public string Name { get; } = $"mt_{Guid.NewGuid():N}"[..15];

    /// <summary>A copy of db/postgres (numbered files and repeatable/) that a test may add to or edit.</summary>
    public string Scripts => _scripts.Value;

    public Task<(int ExitCode, string Output, string Error)> MigrateAsync(params string[] args) =>
        MigrateViaAsync(TestServices.PostgresConnectionString, new StringWriter(), args);

    /// <summary>As <see cref="MigrateAsync"/> through <paramref name="connectionString"/>, its output written to <paramref name="output"/> as it comes.</summary>
    public async Task<(int ExitCode, string Output, string Error)> MigrateViaAsync(string connectionString, TextWriter output, params string[] args)
    {
        var error = new StringWriter();
        var settings = new Dictionary<string, string?>
        {
            ["Database:Provider"] = "Postgres",
            ["Database:ConnectionString"] = connectionString,
            ["Database:Schema"] = Name,
        };
        int exit = await AdminApp.RunAsync(["migrate", .. args], new AdminConsole(new StringReader(""), output, error), settings);
        return (exit, output.ToString()!, error.ToString());
    }

    /// <summary>As <see cref="MigrateAsync"/> with the copied scripts (<see cref="Scripts"/>).</summary>
    public Task<(int ExitCode, string Output, string Error)> MigrateCopyAsync(params string[] args) => MigrateAsync(["--scripts", Scripts, .. args]);

    public async Task<NpgsqlConnection> OpenAsync()
    {
        var connection = new NpgsqlConnection(TestServices.PostgresConnectionString);
        await connection.OpenAsync();
        return connection;
    }

    /// <summary>The journal's script names, in name order.</summary>
    public async Task<IReadOnlyList<string>> JournalAsync()
    {
        await using var connection = await OpenAsync();
        return (await connection.QueryAsync<string>($"SELECT scriptname FROM {Name}.migration_journal ORDER BY scriptname COLLATE \"C\"")).AsList();
    }

    /// <summary>The outbox's constraints: name, oid (a dropped and re-added constraint has a new one) and whether validated.</summary>
    public async Task<IReadOnlyList<(string Name, uint Oid, bool Validated)>> OutboxConstraintsAsync()
    {
        await using var connection = await OpenAsync();
        return (await connection.QueryAsync<(string, uint, bool)>(
            "SELECT conname::text, oid, convalidated FROM pg_constraint WHERE conrelid = to_regclass(@table) ORDER BY conname",
            new { table = $"{Name}.outbox" })).AsList();
    }

    public async ValueTask DisposeAsync()
    {
        await using (var connection = await OpenAsync())
        {
            await connection.ExecuteAsync($"DROP SCHEMA IF EXISTS {Name} CASCADE");
        }

        if (_scripts.IsValueCreated)
        {
            Directory.Delete(Path.GetDirectoryName(_scripts.Value)!, recursive: true);
        }
    }

    private static string CopyScripts()
    {
        string target = Path.Combine(Directory.CreateTempSubdirectory("migrations-").FullName, "postgres");
        string source = RepositoryLayout.File("db", "postgres");
        foreach (string file in Directory.GetFiles(source, "*.sql", SearchOption.AllDirectories))
        {
            string copy = Path.Combine(target, Path.GetRelativePath(source, file));
            Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
            File.Copy(file, copy);
        }

        return target;
    }
}
