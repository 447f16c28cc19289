using System.Collections.Concurrent;
using Notifications.Admin.Migrations;
using Notifications.Shared.Hosting;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// The test database's schema brought up to date once per test run, by the migrator of <c>notifications-admin migrate</c>
/// (in process, as the owner), as scripts/setup does before the tests: a migration added since setup ran is applied before
/// the first test reads a table. An up-to-date schema costs one look at its journal.
/// </summary>
internal static class TestMigrations
{
    private static readonly ConcurrentDictionary<string, Lazy<Task>> Runs = new(StringComparer.Ordinal);

    /// <summary>Migrates <paramref name="connectionString"/>'s database once per run; every later call returns at once.</summary>
    public static string Migrated(string connectionString)
    {
        // Task.Run: the migration never needs the test's synchronization context, so waiting here cannot deadlock.
        Runs.GetOrAdd(connectionString, cs => new Lazy<Task>(() => Task.Run(() => MigrateAsync(cs, DatabaseProvider.Postgres, TestDatabase.Schema))))
            .Value.GetAwaiter().GetResult();
        return connectionString;
    }

    /// <summary>Applies what <paramref name="schema"/> lacks; a failure names the migration that failed.</summary>
    public static async Task MigrateAsync(string connectionString, DatabaseProvider provider, string schema)
    {
        var migrator = Migrator.For(new DatabaseOptions { Provider = provider, ConnectionString = connectionString, Schema = schema });
        var run = await migrator.RunAsync((_, _) => { }, CancellationToken.None);
        if (!run.Successful)
        {
            throw new InvalidOperationException($"notifications-admin migrate of the test schema {schema} failed at {run.FailedScript}: {run.Error!.Message}", run.Error);
        }

        ServiceLog.Note($"{provider} schema {schema}", $"notifications-admin migrate applied {run.Applied.Count} migration(s)");
    }
}
