using System.Text.Json;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Webhooks;
using Notifications.Shared.Hosting;
using Notifications.Shared.Outcomes;
using Npgsql;

namespace Notifications.IntegrationTests.Outcomes;

/// <summary>
/// Outcome events in a webhook scene: an app's endpoint at the Standard Webhooks receiver, subscribed as
/// <c>scripts/admin webhooks subscribe</c> does, and the events the receiver accepted, read from their bodies.
/// </summary>
internal static class OutcomeEventScene
{
    public const string Endpoint = "app-events";

    /// <summary>The scene's endpoint, registered and subscribed to <paramref name="types"/>.</summary>
    public static async Task SubscribeAsync(WebhookScene scene, params string[] types)
    {
        await scene.AddEndpointAsync(Endpoint, scene.Receiver.PlainUrl!, allowPrivate: true);
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.webhook_event_subscription (endpoint, event_type) SELECT @Endpoint, unnest(@Types)",
            new { Endpoint, Types = types });
    }

    /// <summary>The events the receiver accepted (answered 200, signature verified), in the order they arrived.</summary>
    public static IReadOnlyList<ReceivedEvent> Accepted(WebhookScene scene) =>
        scene.Receiver.Deliveries.Where(d => d.AnsweredStatus == 200 && d.Verdict.Verified).Select(Read).ToList();

    /// <summary>How many outcome_event rows exist of <paramref name="type"/>.</summary>
    public static async Task<long> CountMadeAsync(string type)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>(
            $"SELECT count(*) FROM {TestDatabase.Schema}.outcome_event WHERE event_type = @type", new { type });
    }

    /// <summary>Writes events as a bounce receiver does: with <see cref="OutcomeEvents"/>, in a transaction of its own.</summary>
    public static async Task WriteAsync(IReadOnlyCollection<OutcomeEvent> events)
    {
        await using var connection = await TestDatabase.OpenAsync(DatabaseRole.Consumer);
        await using var transaction = await connection.BeginTransactionAsync();
        await new OutcomeEvents(new DatabaseOptions { Schema = TestDatabase.Schema }).WriteAsync(connection, transaction, events, CancellationToken.None);
        await transaction.CommitAsync();
        // Not kept idle in the pool as the consumer's login: tests that count that login's connections would see it.
        NpgsqlConnection.ClearPool(connection);
    }

    /// <summary>The event a request carried.</summary>
    public static ReceivedEvent Read(WebhookDelivery delivery)
    {
        using var body = JsonDocument.Parse(delivery.Body);
        var data = body.RootElement.GetProperty("data");
        return new ReceivedEvent(delivery.Id!, body.RootElement.GetProperty("type").GetString()!, data.GetProperty("notification_id").GetInt64(),
            data.GetProperty("channel").GetString()!, data.GetProperty("recipient").GetString(), data.GetProperty("detail").GetRawText());
    }

    /// <summary>One accepted event: its webhook-id, type and the notification it reports on.</summary>
    public sealed record ReceivedEvent(string EventId, string Type, long NotificationId, string Channel, string? Recipient, string Detail);
}
