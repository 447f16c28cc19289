using System.Text;
using Notifications.IntegrationTests.Chaos;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Migrations;

/// <summary>
/// <c>migrate --wait</c>, through a TCP forwarder in front of the real PostgreSQL: a database that does not answer yet (a
/// deploy's migrate task started beside it: the swarm smoke test of 2026-11-28 failed with "The operation has timed out"
/// when the task ran before the database was reachable) is tried again until it answers; without --wait, one try; an error
/// that waiting cannot cure fails at once.
/// </summary>
[Collection("services")]
public sealed class MigrateWaitTests
{
    [Fact]
    public async Task Migrate_WaitWhileTheDatabaseIsSilent_TriesAgainThenAppliesEveryMigrationOnce()
    {
        await using var schema = new MigrationSchema();
        await using var proxy = StartProxy();
        proxy.Blackhole();
        var output = new LockedWriter();

        var run = schema.MigrateViaAsync(ViaProxy(proxy), output, "--wait", "2m");
        await Eventually.WaitAsync(() => Task.FromResult(output.Text), t => t.Contains("(try 2,", StringComparison.Ordinal),
            TimeSpan.FromSeconds(60), "a second try of migrate --wait");
        proxy.Restore();
        var (exitCode, text, error) = await run;

        Assert.True(exitCode == 0, error + text);
        Assert.Contains("  waiting for the database (try 1, ", text, StringComparison.Ordinal);
        Assert.Contains("applied  001_outbox.sql", text, StringComparison.Ordinal);
        Assert.Contains("001_outbox.sql", await schema.JournalAsync());
    }

    [Fact]
    public async Task Migrate_WithoutWaitAndTheDatabaseRefusing_FailsOnTheFirstTryWithExit3()
    {
        await using var schema = new MigrationSchema();
        await using var proxy = StartProxy();
        proxy.Refuse();

        var (exitCode, text, error) = await schema.MigrateViaAsync(ViaProxy(proxy), new StringWriter());

        Assert.Equal(3, exitCode);
        Assert.DoesNotContain("waiting for the database", text, StringComparison.Ordinal);
        Assert.Contains("Postgres is unreachable or failed", error, StringComparison.Ordinal);
        // One try: a connection, and Npgsql's second one without TLS when the first is cut (SSL Mode=Prefer).
        Assert.InRange(proxy.Refused, 1, 2);
    }

    [Fact]
    public async Task Migrate_WaitShorterThanTheOutage_TriesUntilItThenFailsWithExit3()
    {
        await using var schema = new MigrationSchema();
        await using var proxy = StartProxy();
        proxy.Refuse();

        var (exitCode, text, error) = await schema.MigrateViaAsync(ViaProxy(proxy), new StringWriter(), "--wait", "5s");

        Assert.Equal(3, exitCode);
        Assert.Contains("  waiting for the database (try 2, ", text, StringComparison.Ordinal);
        Assert.Contains("Postgres is unreachable or failed", error, StringComparison.Ordinal);
        // One connection per try (GSS session encryption is off, as for the workers: before, Npgsql made two per try).
        Assert.True(proxy.Refused >= 2, $"{proxy.Refused} connections");
    }

    [Fact]
    public async Task Migrate_WaitAndAWrongPassword_FailsAtOnceWithoutWaiting()
    {
        await using var schema = new MigrationSchema();
        string wrong = new NpgsqlConnectionStringBuilder(TestServices.PostgresConnectionString) { Password = "not-the-password" }.ConnectionString;

        var (exitCode, text, error) = await schema.MigrateViaAsync(wrong, new StringWriter(), "--wait", "2m");

        Assert.Equal(3, exitCode);
        Assert.DoesNotContain("waiting for the database", text, StringComparison.Ordinal);
        Assert.Contains("password authentication failed", error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Migrate_WaitNotADuration_RefusedNamingTheOption()
    {
        await using var schema = new MigrationSchema();

        var (exitCode, _, error) = await schema.MigrateAsync("--wait", "soon");

        Assert.NotEqual(0, exitCode);
        Assert.Contains("--wait must be a duration such as 2m, 90s or 0, not 'soon'", error, StringComparison.Ordinal);
    }

    private static BlackholeProxy StartProxy() => BlackholeProxy.Start(new NpgsqlConnectionStringBuilder(TestServices.PostgresConnectionString).Port);

    private static string ViaProxy(BlackholeProxy proxy) =>
        new NpgsqlConnectionStringBuilder(TestServices.PostgresConnectionString) { Host = "127.0.0.1", Port = proxy.Port, Timeout = 2, Pooling = false }.ConnectionString;

    /// <summary>A writer whose text may be read while the command writes to it.</summary>
    private sealed class LockedWriter : StringWriter
    {
        private readonly Lock _gate = new();

        public string Text
        {
            get
            {
                lock (_gate)
                {
                    return ToString();
                }
            }
        }

        public override void Write(char value)
        {
            lock (_gate)
            {
                base.Write(value);
            }
        }

        public override void Write(string? value)
        {
            lock (_gate)
            {
                base.Write(value);
            }
        }

        public override void Write(char[] buffer, int index, int count)
        {
            lock (_gate)
            {
                base.Write(buffer, index, count);
            }
        }

        public override void WriteLine(string? value)
        {
            lock (_gate)
            {
                base.WriteLine(value);
            }
        }

        public override Encoding Encoding => Encoding.UTF8;
    }
}
