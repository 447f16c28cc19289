using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Npgsql;

namespace Notifications.IntegrationTests.Outcomes;

/// <summary>
/// The delivery log's batch with its delivered events on PostgreSQL (docs/outcome-events.md, "Cost on the hot path"): the
/// <c>sent</c> rows and their events go in one command, so they commit together or not at all; an event is made once per
/// notification and endpoint, however often its notification is logged.
/// </summary>
[Collection("services")]
public sealed class DeliveredEventBatchTests : IAsyncLifetime
{
    private const string Endpoint = "batch-events";
    private readonly NpgsqlDataSource _dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);

    public Task InitializeAsync() => Task.CompletedTask;

    // The endpoint goes with the test (CleanAsync keeps endpoints; other tests list them).
    public async Task DisposeAsync()
    {
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.webhook_endpoint WHERE name = @Endpoint", new { Endpoint });
        }

        await _dataSource.DisposeAsync();
    }

    [Fact]
    public async Task RecordSent_WithDeliveredEvents_EachNotificationOneEventRowAndOneOutboxRowOfItsId_OnceWhenLoggedAgain()
    {
        var log = await StartAsync();
        long[] ids = [101, 102, 103];

        await log.RecordSentAsync(Sent(ids), CancellationToken.None);
        await log.RecordSentAsync(Sent(ids), CancellationToken.None);   // a redelivered batch

        await using var connection = await TestDatabase.OpenAsync();
        var events = (await connection.QueryAsync<(long NotificationId, long EventId)>(
            $"SELECT notification_id, event_id FROM {TestDatabase.Schema}.outcome_event ORDER BY notification_id")).AsList();
        Assert.Equal(ids, events.Select(e => e.NotificationId));
        var rows = (await connection.QueryAsync<(long Id, string Channel, string Recipient, string Subject, string Data)>(
            $"SELECT id, channel, recipient, subject, data FROM {TestDatabase.Schema}.outbox ORDER BY id")).AsList();
        Assert.Equal(events.Select(e => e.EventId).Order(), rows.Select(r => r.Id));
        Assert.All(rows, r => Assert.Equal(("webhook", Endpoint, OutcomeEventTypes.Delivered), (r.Channel, r.Recipient, r.Subject)));
        // Each outbox row carries its own notification's data, not another's.
        foreach (var (notificationId, eventId) in events)
        {
            Assert.Contains($"\"notification_id\":{notificationId},", rows.Single(r => r.Id == eventId).Data);
        }

        Assert.Equal(ids, (await log.FindSentAsync(ids, CancellationToken.None)).Order());
    }

    [Fact]
    public async Task RecordSent_EventStatementFails_NoSentRowIsLeft()
    {
        var log = await StartAsync();
        await using var connection = await TestDatabase.OpenAsync();
        // The events' part of the command fails after the sent rows' part has run.
        await connection.ExecuteAsync($"""
            CREATE FUNCTION {TestDatabase.Schema}.test_refuse_event() RETURNS trigger LANGUAGE plpgsql
                AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
            CREATE TRIGGER test_refuse_event BEFORE INSERT ON {TestDatabase.Schema}.outcome_event
                FOR EACH ROW EXECUTE FUNCTION {TestDatabase.Schema}.test_refuse_event();
            """);
        try
        {
            var failure = await Assert.ThrowsAsync<PostgresException>(() => log.RecordSentAsync(Sent([201, 202]), CancellationToken.None));
            Assert.Contains("refused by the test", failure.MessageText);
        }
        finally
        {
            await connection.ExecuteAsync($"DROP FUNCTION {TestDatabase.Schema}.test_refuse_event() CASCADE");
        }

        Assert.Empty(await log.FindSentAsync([201, 202], CancellationToken.None));
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.delivery_log"));
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.outbox"));
    }

    private async Task<PostgresDeliveryLogStore> StartAsync()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.webhook_endpoint WHERE name = @Endpoint", new { Endpoint });
        await connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.webhook_endpoint (name, url, secret) VALUES (@Endpoint, 'https://app.example/events', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')",
            new { Endpoint });
        await connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.webhook_event_subscription (endpoint, event_type) VALUES (@Endpoint, @Type)",
            new { Endpoint, Type = OutcomeEventTypes.Delivered });
        return new PostgresDeliveryLogStore(_dataSource, new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema });
    }

    private static List<SentNotification> Sent(long[] ids) => ids.Select(id => new SentNotification(id, DateTimeOffset.UtcNow, 1)
    {
        Outcome = new OutcomeEvent(id, OutcomeEventTypes.Delivered, "email", $"user{id}@example.com", DateTimeOffset.UtcNow, """{"attempt":1}"""),
    }).ToList();
}
