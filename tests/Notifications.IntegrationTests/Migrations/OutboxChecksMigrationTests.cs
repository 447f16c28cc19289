using Dapper;
using Npgsql;

namespace Notifications.IntegrationTests.Migrations;

/// <summary>
/// Migration 023 (the outbox's recipient and subject checks) on an outbox that already holds rows: bad rows from before
/// leave the checks unvalidated and the migration succeeds; new bad rows are refused at once; once the old ones are gone,
/// a run again validates them.
/// </summary>
[Collection("services")]
public sealed class OutboxChecksMigrationTests
{
    private const string Checks = "023_outbox_recipient_and_subject_checks.sql";

    [Fact]
    public async Task Migrate_OutboxWithRowsThatFailTheChecks_SucceedsLeavesThemUnvalidatedAndRefusesNewBadRows()
    {
        await using var schema = new MigrationSchema();
        string file = Path.Combine(schema.Scripts, Checks);
        string aside = Path.Combine(Path.GetDirectoryName(schema.Scripts)!, Checks);
        File.Move(file, aside);
        Assert.Equal(0, (await schema.MigrateCopyAsync()).ExitCode);
        await using var connection = await schema.OpenAsync();
        await connection.ExecuteAsync($"""
            INSERT INTO {schema.Name}.outbox (recipient, subject, body) VALUES
                ('ada@example.com', 'Order shipped', 'Hello'),
                ('Eve <e@example.com>', 'display name', 'old'),
                ('bo@example.com', 'Hi' || chr(13) || chr(10) || 'Bcc: victim@example.com', 'old')
            """);

        File.Move(aside, file);
        var applied = await schema.MigrateCopyAsync();

        Assert.True(applied.ExitCode == 0, applied.Error);
        Assert.Contains($"applied  {Checks}", applied.Output, StringComparison.Ordinal);
        Assert.Equal([("outbox_email_recipient_one_address", false), ("outbox_subject_one_line", false)], await ChecksAsync(schema));
        Assert.Equal(3, await connection.ExecuteScalarAsync<int>($"SELECT count(*) FROM {schema.Name}.outbox"));
        var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(
            $"INSERT INTO {schema.Name}.outbox (recipient, subject, body) VALUES ('Eve <e@example.com>', 'new', 'b')"));
        Assert.Equal("outbox_email_recipient_one_address", refused.ConstraintName);

        // The old rows gone (dead-lettered by the consumer), the same file run again validates both checks.
        await connection.ExecuteAsync($"DELETE FROM {schema.Name}.outbox WHERE body = 'old'");
        await connection.ExecuteAsync($"DELETE FROM {schema.Name}.migration_journal WHERE scriptname = @Checks", new { Checks });
        var again = await schema.MigrateCopyAsync();

        Assert.True(again.ExitCode == 0, again.Error);
        Assert.Equal([("outbox_email_recipient_one_address", true), ("outbox_subject_one_line", true)], await ChecksAsync(schema));
    }

    private static async Task<List<(string Name, bool Validated)>> ChecksAsync(MigrationSchema schema) =>
        (await schema.OutboxConstraintsAsync())
            .Where(c => c.Name is "outbox_email_recipient_one_address" or "outbox_subject_one_line")
            .Select(c => (c.Name, c.Validated)).ToList();
}
