using System.Diagnostics;
using Dapper;
using Notifications.Admin.Migrations;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.IntegrationTests.Migrations;

/// <summary>
/// <c>notifications-admin migrate</c> on the real PostgreSQL, each test in a schema of its own: every migration once,
/// recorded in the journal; a populated outbox left alone by a second run; a schema made by the scripts of before the
/// journal adopted without a constraint dropped and re-added; files added later applied once; a failure named.
/// </summary>
[Collection("services")]
public sealed class MigrateTests
{
    private const int PopulatedRows = 200_000;

    [Fact]
    public async Task Migrate_Twice_SecondRunAppliesNothingAndJournalListsEveryMigration()
    {
        await using var schema = new MigrationSchema();

        var first = await schema.MigrateAsync();
        var second = await schema.MigrateAsync();
        var list = await schema.MigrateAsync("--list");

        Assert.True(first.ExitCode == 0, first.Error);
        Assert.Contains("applied  001_outbox.sql", first.Output, StringComparison.Ordinal);
        Assert.True(second.ExitCode == 0, second.Error);
        Assert.Contains("Up to date", second.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("applied  ", second.Output, StringComparison.Ordinal);
        var expected = MigrationScripts.Embedded(DatabaseProvider.Postgres).Scripts.Select(s => s.Name).Order(StringComparer.Ordinal);
        Assert.Equal(expected, await schema.JournalAsync());
        Assert.Contains($"{expected.Count()} applied, 0 pending.", list.Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Migrate_PopulatedOutboxAndAnOpenInsert_SecondRunTakesNoLockAndKeepsEveryConstraint()
    {
        await using var schema = new MigrationSchema();
        Assert.Equal(0, (await schema.MigrateAsync()).ExitCode);
        await PopulateOutboxAsync(schema);
        var before = await schema.OutboxConstraintsAsync();

        // A business app's insert in flight holds ROW EXCLUSIVE on the outbox: any ALTER TABLE of it would wait behind it.
        await using var app = await schema.OpenAsync();
        await using var insert = await app.BeginTransactionAsync();
        await app.ExecuteAsync($"INSERT INTO {schema.Name}.outbox (recipient, subject, body) VALUES ('a@example.com', 's', 'b')", transaction: insert);
        var stopwatch = Stopwatch.StartNew();
        var run = schema.MigrateAsync();
        var finished = await Task.WhenAny(run, Task.Delay(TimeSpan.FromSeconds(30)));
        await insert.RollbackAsync();
        var second = await run;

        Assert.True(finished == run, "the second migrate waited for a lock on the outbox behind an open insert");
        Assert.True(second.ExitCode == 0, second.Error);
        Assert.Contains("Up to date", second.Output, StringComparison.Ordinal);
        Assert.Equal(before, await schema.OutboxConstraintsAsync());
        Assert.True(stopwatch.Elapsed < TimeSpan.FromSeconds(10), $"the second migrate took {stopwatch.Elapsed}");
    }

    [Fact]
    public async Task Migrate_PopulatedSchemaWithoutJournal_AdoptsItWithoutDroppingOrRescanningAConstraint()
    {
        await using var schema = new MigrationSchema();
        Assert.Equal(0, (await schema.MigrateAsync()).ExitCode);
        await PopulateOutboxAsync(schema);
        var before = await schema.OutboxConstraintsAsync();
        // As scripts/setup left every database before the journal: every file applied, no journal.
        await using (var connection = await schema.OpenAsync())
        {
            await connection.ExecuteAsync($"DROP TABLE {schema.Name}.{Migrator.JournalTable}");
        }

        var stopwatch = Stopwatch.StartNew();
        var adopted = await schema.MigrateAsync();
        var took = stopwatch.Elapsed;
        var again = await schema.MigrateAsync();

        Assert.True(adopted.ExitCode == 0, adopted.Error);
        Assert.Contains("applied  017_channels.sql", adopted.Output, StringComparison.Ordinal);
        var after = await schema.OutboxConstraintsAsync();
        Assert.Equal(before, after);
        Assert.All(after, c => Assert.True(c.Validated, $"{c.Name} is NOT VALID"));
        Assert.Contains("Up to date", again.Output, StringComparison.Ordinal);
        Assert.Equal(MigrationScripts.Embedded(DatabaseProvider.Postgres).Scripts.Count, (await schema.JournalAsync()).Count);
        Assert.True(took < TimeSpan.FromSeconds(30), $"adopting a schema with {PopulatedRows:N0} outbox rows took {took}");
    }

    [Fact]
    public async Task Migrate_NumberedFileAddedLater_AppliesItOnce()
    {
        await using var schema = new MigrationSchema();
        Assert.Equal(0, (await schema.MigrateCopyAsync()).ExitCode);
        // Not re-runnable on purpose: a second run would insert a second row.
        await File.WriteAllTextAsync(Path.Combine(schema.Scripts, "900_later.sql"), """
            CREATE TABLE :"schema".later (id int);
            INSERT INTO :"schema".later VALUES (1);
            """);

        var dryRun = await schema.MigrateCopyAsync("--dry-run");
        var added = await schema.MigrateCopyAsync();
        var again = await schema.MigrateCopyAsync();

        Assert.Contains("would apply  900_later.sql", dryRun.Output, StringComparison.Ordinal);
        Assert.True(added.ExitCode == 0, added.Error);
        Assert.Equal(["applied  900_later.sql"], Applied(added.Output));
        Assert.Empty(Applied(again.Output));
        await using var connection = await schema.OpenAsync();
        Assert.Equal(1, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {schema.Name}.later"));
        Assert.Contains("900_later.sql", await schema.JournalAsync());
    }

    [Fact]
    public async Task Migrate_RepeatableFileChanged_RunsItAgainAlone()
    {
        await using var schema = new MigrationSchema();
        Assert.Equal(0, (await schema.MigrateCopyAsync()).ExitCode);
        string file = Directory.GetFiles(Path.Combine(schema.Scripts, MigrationScripts.RepeatableFolder), "*notification_status.sql").Single();
        await File.AppendAllTextAsync(file, "\n-- edited\n");

        var list = await schema.MigrateCopyAsync("--list");
        var changed = await schema.MigrateCopyAsync();

        Assert.Contains("changed", list.Output, StringComparison.Ordinal);
        Assert.True(changed.ExitCode == 0, changed.Error);
        string applied = Assert.Single(Applied(changed.Output));
        Assert.Contains("notification_status.sql@", applied, StringComparison.Ordinal);
        Assert.Equal(2, (await schema.JournalAsync()).Count(name => name.Contains("notification_status.sql@", StringComparison.Ordinal)));
    }

    /// <summary>
    /// An upgrade, a downgrade (an older tool's migrate, as a rollback of the workers runs it) and the upgrade again: each
    /// time the repeatable file's text is the one the running version carries, so each time it runs. Before, the journal
    /// counted a text as applied if it had ever been: the second upgrade found its text journaled by the first and kept
    /// the older version's function (and grants, for 90_roles.sql).
    /// </summary>
    [Fact]
    public async Task Migrate_RepeatableFileBackAndForth_EachVersionsTextRunsWhenItComesBack()
    {
        await using var schema = new MigrationSchema();
        string file = Directory.GetFiles(Path.Combine(schema.Scripts, MigrationScripts.RepeatableFolder), "*notification_status.sql").Single();
        string older = await File.ReadAllTextAsync(file);
        // The newer version's function says which version made it, in its comment.
        string newer = older + $"\nCOMMENT ON FUNCTION :\"schema\".notification_status(bigint) IS 'newer';\n";
        await File.WriteAllTextAsync(file, newer);
        Assert.Equal(0, (await schema.MigrateCopyAsync()).ExitCode);

        await File.WriteAllTextAsync(file, older + "\nCOMMENT ON FUNCTION :\"schema\".notification_status(bigint) IS 'older';\n");
        var down = await schema.MigrateCopyAsync();
        string afterDown = await FunctionCommentAsync(schema);
        await File.WriteAllTextAsync(file, newer);
        var list = await schema.MigrateCopyAsync("--list");
        var up = await schema.MigrateCopyAsync();

        Assert.True(down.ExitCode == 0, down.Error);
        Assert.Equal("older", afterDown);
        Assert.Contains("changed", list.Output, StringComparison.Ordinal);
        Assert.True(up.ExitCode == 0, up.Error);
        Assert.Contains("notification_status.sql@", Assert.Single(Applied(up.Output)), StringComparison.Ordinal);
        Assert.Equal("newer", await FunctionCommentAsync(schema));
        Assert.Contains("Up to date", (await schema.MigrateCopyAsync()).Output, StringComparison.Ordinal);
    }

    private static async Task<string> FunctionCommentAsync(MigrationSchema schema)
    {
        await using var connection = await schema.OpenAsync();
        return await connection.ExecuteScalarAsync<string>(
            "SELECT obj_description(to_regprocedure(@f), 'pg_proc')", new { f = $"{schema.Name}.notification_status(bigint)" }) ?? "";
    }

    [Fact]
    public async Task Migrate_FailingFile_StopsNamingItAndLeavesItOutOfTheJournal()
    {
        await using var schema = new MigrationSchema();
        Assert.Equal(0, (await schema.MigrateCopyAsync()).ExitCode);
        string broken = Path.Combine(schema.Scripts, "900_broken.sql");
        await File.WriteAllTextAsync(broken, """CREATE TABLE IF NOT EXISTS :"schema".first_half (id int); SELEC 1;""");
        await File.WriteAllTextAsync(Path.Combine(schema.Scripts, "901_after.sql"), """CREATE TABLE :"schema".after_broken (id int);""");

        var failed = await schema.MigrateCopyAsync();
        var journal = await schema.JournalAsync();
        await File.WriteAllTextAsync(broken, """CREATE TABLE IF NOT EXISTS :"schema".first_half (id int); SELECT 1;""");
        var fixedRun = await schema.MigrateCopyAsync();

        Assert.Equal(1, failed.ExitCode);
        Assert.Contains("migration 900_broken.sql failed", failed.Error, StringComparison.Ordinal);
        Assert.Contains("syntax error", failed.Error, StringComparison.Ordinal);
        Assert.DoesNotContain("900_broken.sql", journal);
        Assert.DoesNotContain("901_after.sql", journal);
        Assert.True(fixedRun.ExitCode == 0, fixedRun.Error);
        Assert.Equal(["applied  900_broken.sql", "applied  901_after.sql"], Applied(fixedRun.Output));
    }

    [Fact]
    public async Task Migrate_TwoAtOnce_OneWaitsForTheOtherAndEachFileIsJournaledOnce()
    {
        await using var schema = new MigrationSchema();

        var runs = await Task.WhenAll(schema.MigrateAsync(), schema.MigrateAsync());

        Assert.All(runs, r => Assert.True(r.ExitCode == 0, r.Error));
        var journal = await schema.JournalAsync();
        Assert.Equal(journal.Distinct(StringComparer.Ordinal).Count(), journal.Count);
        Assert.Equal(MigrationScripts.Embedded(DatabaseProvider.Postgres).Scripts.Count, journal.Count);
        Assert.Single(runs, r => r.Output.Contains("Up to date", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Migrate_ExactSuppressionKeysOnAPopulatedList_KeepsEveryRowAndAValidPrimaryKeyAndAdoptionLeavesIt()
    {
        // A schema as the version before 022 left it, with a list in it: the file is taken out of the copy, then put back.
        await using var schema = new MigrationSchema();
        const string exact = "022_suppression_exact_keys.sql";
        string file = Path.Combine(schema.Scripts, exact);
        string aside = Path.Combine(Path.GetDirectoryName(schema.Scripts)!, exact);
        File.Move(file, aside);
        Assert.Equal(0, (await schema.MigrateCopyAsync()).ExitCode);
        await using var connection = await schema.OpenAsync();
        await connection.ExecuteAsync(
            $"""
            INSERT INTO {schema.Name}.suppression (address, reason, scope)
            SELECT 'user' || g || '@example.com', 'manual', 'all' FROM generate_series(1, 20000) AS g
            UNION ALL SELECT 'fcm:token-a', 'unregistered', 'all'
            """);
        Assert.Equal("default", await CollationAsync(connection, schema));

        File.Move(aside, file);
        var applied = await schema.MigrateCopyAsync();
        var afterMigration = await PrimaryKeyAsync(connection, schema);
        await connection.ExecuteAsync($"DROP TABLE {schema.Name}.{Migrator.JournalTable}");
        var adopted = await schema.MigrateCopyAsync();

        Assert.True(applied.ExitCode == 0, applied.Error);
        Assert.Equal([$"applied  {exact}"], Applied(applied.Output));
        Assert.Equal("C", await CollationAsync(connection, schema));
        Assert.Equal(20_001, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {schema.Name}.suppression"));
        Assert.True(afterMigration is { Valid: true, Unique: true, Primary: true }, $"the key's index after 022: {afterMigration}");
        // A token differing only in case is another key; the same one still collides.
        await connection.ExecuteAsync($"INSERT INTO {schema.Name}.suppression (address, reason, scope) VALUES ('fcm:Token-A', 'manual', 'all')");
        var duplicate = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(
            $"INSERT INTO {schema.Name}.suppression (address, reason, scope) VALUES ('fcm:token-a', 'manual', 'all')"));
        Assert.Equal(PostgresErrorCodes.UniqueViolation, duplicate.SqlState);
        // Adoption runs every numbered file again: 022's guard leaves the column and its index as they are (same oid).
        Assert.True(adopted.ExitCode == 0, adopted.Error);
        Assert.Equal(afterMigration, await PrimaryKeyAsync(connection, schema));
    }

    private static Task<string> CollationAsync(NpgsqlConnection connection, MigrationSchema schema) => connection.ExecuteScalarAsync<string>(
        """
        SELECT c.collname::text FROM pg_attribute AS a JOIN pg_collation AS c ON c.oid = a.attcollation
        WHERE a.attrelid = to_regclass(@table) AND a.attname = 'address'
        """, new { table = $"{schema.Name}.suppression" })!;

    private static async Task<(uint Oid, bool Valid, bool Unique, bool Primary)> PrimaryKeyAsync(NpgsqlConnection connection, MigrationSchema schema) =>
        await connection.QuerySingleAsync<(uint, bool, bool, bool)>(
            """
            SELECT i.indexrelid, i.indisvalid, i.indisunique, i.indisprimary FROM pg_constraint AS k JOIN pg_index AS i ON i.indexrelid = k.conindid
            WHERE k.conrelid = to_regclass(@table) AND k.contype = 'p'
            """, new { table = $"{schema.Name}.suppression" });

    private static async Task PopulateOutboxAsync(MigrationSchema schema)
    {
        await using var connection = await schema.OpenAsync();
        await connection.ExecuteAsync(
            $"""
            INSERT INTO {schema.Name}.outbox (recipient, subject, body)
            SELECT 'user' || g || '@example.com', 'Order shipped #' || g, 'Hello' FROM generate_series(1, @rows) AS g;
            ANALYZE {schema.Name}.outbox;
            """, new { rows = PopulatedRows }, commandTimeout: 300);
    }

    private static List<string> Applied(string output) =>
        output.Split('\n').Select(l => l.Trim()).Where(l => l.StartsWith("applied  ", StringComparison.Ordinal))
            .Select(l => l[..l.LastIndexOf("  (", StringComparison.Ordinal)]).ToList();
}
