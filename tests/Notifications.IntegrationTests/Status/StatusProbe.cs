using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.IntegrationTests.Status;

/// <summary>Asks the test database what happened to a notification: through the store (the SQL function) and through <c>admin show</c>.</summary>
internal static class StatusProbe
{
    private static readonly DatabaseOptions Options = new()
    {
        Provider = DatabaseProvider.Postgres,
        ConnectionString = TestServices.PostgresConnectionString,
        Schema = TestDatabase.Schema,
    };

    private static readonly NpgsqlDataSource DataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);

    public static Task<NotificationStatus> GetAsync(long id) => new PostgresNotificationStatusStore(DataSource, Options).GetAsync(id, CancellationToken.None);

    public static PostgresRetentionStore Retention() => new(DataSource, Options);

    public static PostgresDeadLetterStore DeadLetters() => new(DataSource, Options);

    /// <summary><c>admin show id</c> in process: exit code and what it printed.</summary>
    public static async Task<(int ExitCode, string Output)> ShowAsync(TestBroker broker, long id)
    {
        var (exit, output, error) = await AdminRun.InProcessAsync(broker, "", "show", id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        Assert.True(error.Length == 0, error);
        return (exit, output);
    }

    /// <summary>The dead_letter rows: notification id, reason, attempts.</summary>
    public static async Task<List<(long? Id, string Reason, int Attempts)>> DeadLetterRowsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<(long?, string, int)>(
            $"SELECT notification_id, reason, attempts FROM {TestDatabase.Schema}.dead_letter ORDER BY id")).AsList();
    }

    /// <summary>Waits until the status of <paramref name="id"/> is <paramref name="state"/>; returns it.</summary>
    public static Task<NotificationStatus> WaitForAsync(long id, string state, TimeSpan? timeout = null) =>
        Eventually.WaitAsync(() => GetAsync(id), s => s.State == state, timeout ?? TimeSpan.FromMinutes(1), $"notification {id} {state}");
}
