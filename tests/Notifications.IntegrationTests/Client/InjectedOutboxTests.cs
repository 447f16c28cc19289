using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// <see cref="INotificationOutbox"/> as an app gets it from <c>AddNotificationsClient(o =&gt; o.UsePostgreSql(...))</c>, as a
/// login in the <c>notifications_app</c> role, on the real PostgreSQL (and, for the status, the real pipeline).
/// </summary>
[Collection("services")]
public sealed class InjectedOutboxTests
{
    [Fact]
    public async Task EnqueueAsync_InTheAppsTransaction_CommitsAndRollsBackWithIt()
    {
        var db = await TestDatabase.CleanAsync();
        await using var services = AppServices(TestRoles.ConnectionString(DatabaseRole.App));
        var outbox = services.GetRequiredService<INotificationOutbox>();

        long rolledBack = await InAppTransactionAsync(outbox, new NewNotification("ghost@example.com", "Never", "rolled back"), commit: false);
        long committed = await InAppTransactionAsync(outbox, new NewNotification("ada@example.com", "Welcome", "hello") { IdempotencyKey = "signup-ada" }, commit: true);
        long again = await InAppTransactionAsync(outbox, new NewNotification("ada@example.com", "Welcome", "hello") { IdempotencyKey = "signup-ada" }, commit: true);

        await using var connection = await TestDatabase.OpenAsync();
        var rows = await connection.QueryAsync<(long, string)>($"SELECT id, recipient FROM {TestDatabase.Schema}.outbox ORDER BY id");
        Assert.Equal([(committed, "ada@example.com")], rows);
        Assert.NotEqual(rolledBack, committed);
        Assert.Equal(committed, again);
        Assert.Equal(1, await db.CountAsync("idempotency_key"));
    }

    [Fact]
    public async Task EnqueueAsync_NoTransactionOfTheApps_CommitsInOneOfItsOwn()
    {
        var db = await TestDatabase.CleanAsync();
        await using var services = AppServices(TestRoles.ConnectionString(DatabaseRole.App));
        var outbox = services.GetRequiredService<INotificationOutbox>();

        long id = await outbox.EnqueueAsync(new NewNotification("solo@example.com", "No business transaction", "body"));

        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal("solo@example.com", await connection.QuerySingleAsync<string>($"SELECT recipient FROM {TestDatabase.Schema}.outbox WHERE id = @id", new { id }));
        Assert.Equal(1, await db.CountAsync("outbox"));
    }

    [Fact]
    public async Task EnqueueAsync_RefusedField_ThrowsBeforeOpeningAConnection()
    {
        // Nothing listens on port 1: a connection attempt would fail with an NpgsqlException, not an ArgumentException.
        await using var services = AppServices("Host=127.0.0.1;Port=1;Username=nobody;Password=none;Timeout=2");
        var outbox = services.GetRequiredService<INotificationOutbox>();

        var refused = await Assert.ThrowsAsync<ArgumentException>(
            () => outbox.EnqueueAsync(new NewNotification("a@example.com", "Hi", "body") { IdempotencyKey = "" }));

        Assert.Contains("idempotency key is empty", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task GetStatusAsync_PipelineRun_WaitingThenSent()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var services = AppServices(TestRoles.ConnectionString(DatabaseRole.App));
        var outbox = services.GetRequiredService<INotificationOutbox>();
        long id = await outbox.EnqueueAsync(new NewNotification("status@example.com", "Where is it?", "body"));

        var waiting = await outbox.GetStatusAsync(id);
        NotificationStatus sent;
        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(1, TimeSpan.FromMinutes(1));
            sent = await Eventually.WaitAsync(() => outbox.GetStatusAsync(id), s => s.State == NotificationState.Sent, TimeSpan.FromMinutes(1), "status sent");
        }

        Assert.Equal((id, NotificationState.Waiting, "waiting"), (waiting.NotificationId, waiting.State, waiting.StateName));
        Assert.Equal((id, 1), (sent.NotificationId, sent.Attempts));
        Assert.InRange(sent.At!.Value, waiting.At!.Value, DateTimeOffset.UtcNow.AddMinutes(1));
        Assert.Equal(NotificationState.Unknown, (await outbox.GetStatusAsync(id + 1_000_000)).State);
    }

    [Fact]
    public void AddNotificationsClient_NoProvider_ThrowsNamingThePackages()
    {
        var refused = Assert.Throws<InvalidOperationException>(() => new ServiceCollection().AddNotificationsClient(o => o.Schema = "notifications"));

        Assert.Contains("Notifications.Client.PostgreSql", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UsePostgreSql_TheAppsDataSource_SharedAndLeftOpen()
    {
        await TestDatabase.CleanAsync();
        await using var appPool = NpgsqlDataSource.Create(TestRoles.ConnectionString(DatabaseRole.App));
        var collection = new ServiceCollection().AddSingleton(appPool);
        collection.AddNotificationsClient(o => o.UsePostgreSql(sp => sp.GetRequiredService<NpgsqlDataSource>()));
        long id;
        await using (var services = collection.BuildServiceProvider())
        {
            id = await services.GetRequiredService<INotificationOutbox>().EnqueueAsync(new NewNotification("pool@example.com", "Shared pool", "body"));
        }

        // Disposing the container left the app's data source usable.
        await using var connection = await appPool.OpenConnectionAsync();
        Assert.Equal(NotificationState.Waiting, (await NotificationOutbox.GetStatusAsync(connection, id, TestDatabase.Schema)).State);
    }

    private static ServiceProvider AppServices(string connectionString) =>
        new ServiceCollection()
            .AddNotificationsClient(o =>
            {
                o.UsePostgreSql(connectionString);
                o.Schema = TestDatabase.Schema;
            })
            .BuildServiceProvider();

    private static async Task<long> InAppTransactionAsync(INotificationOutbox outbox, NewNotification notification, bool commit)
    {
        await using var connection = await TestDatabase.OpenAsync(DatabaseRole.App);
        await using var transaction = await connection.BeginTransactionAsync();
        long id = await outbox.EnqueueAsync(transaction, notification);
        await (commit ? transaction.CommitAsync() : transaction.RollbackAsync());
        return id;
    }
}
