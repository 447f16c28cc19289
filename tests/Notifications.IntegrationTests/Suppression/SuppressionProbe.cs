using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Sending;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;
using Priority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>The suppression table and the notifications of the suppression tests, as the test database and the SMTP server hold them.</summary>
internal static class SuppressionProbe
{
    public const string SigningKey = "integration-test-unsubscribe-key-0123456789";

    private static readonly NpgsqlDataSource DataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);

    /// <summary>The store as any other process (the admin tool, another consumer) would write with it.</summary>
    public static ISuppressionStore Store() => new PostgresSuppressionStore(DataSource, new DatabaseOptions
    {
        Provider = DatabaseProvider.Postgres,
        ConnectionString = TestServices.PostgresConnectionString,
        Schema = TestDatabase.Schema,
    });

    /// <summary>The consumer settings that turn the List-Unsubscribe headers and the one-click endpoint on.</summary>
    public static (string Key, string? Value)[] UnsubscribeSettings =>
    [
        ("Unsubscribe:UrlTemplate", "https://mail.example.test/unsubscribe?token={token}"),
        ("Unsubscribe:Mailto", "unsubscribe@example.test"),
        ("Unsubscribe:SigningKey", SigningKey),
    ];

    public static Task<long> EnqueueAsync(string recipient, Priority priority = Priority.Normal) =>
        TestDatabase.EnqueueAsync(new NewNotification(recipient, $"To {recipient}", "Hello.") { Priority = priority });

    /// <summary>The rows of the table, removed ones too: key, reason, scope, detail, removed.</summary>
    public static async Task<List<(string Address, string Reason, string Scope, string? Detail, bool Removed)>> RowsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<(string, string, string, string?, bool)>(
            $"SELECT address, reason, scope, detail, removed_at IS NOT NULL FROM {TestDatabase.Schema}.suppression ORDER BY address")).AsList();
    }

    /// <summary>The dump file of notification <paramref name="id"/> at the sink, read back.</summary>
    public static SinkDump Dump(SmtpSink sink, long id) =>
        sink.MessageFiles().Select(SinkDump.Read).Single(d => d.Headers.TryGetValue("X-Notification-Id", out var v) && v == id.ToString(System.Globalization.CultureInfo.InvariantCulture));
}
