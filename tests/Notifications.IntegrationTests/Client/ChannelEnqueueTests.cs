using System.Text.Json.Nodes;
using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;
using WorkerLane = Notifications.Shared.Data.NotificationPriority;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// Webhook and push notifications through the client package into the real PostgreSQL outbox, and out of it as the producer
/// claims them: the row's columns, and the wire message the consumer gets (channel, data; no body for a webhook).
/// </summary>
[Collection("services")]
public sealed class ChannelEnqueueTests : IDisposable
{
    private const string ApnsToken = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    private readonly NpgsqlDataSource _dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);

    public void Dispose() => _dataSource.Dispose();

    [Fact]
    public async Task EnqueueAsync_WebhookAndPush_ClaimedAsValidMessagesOfTheirChannels()
    {
        await TestDatabase.CleanAsync();
        long webhook, push, dataOnly;
        await using (var connection = await TestDatabase.OpenAsync())
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            webhook = await NotificationOutbox.EnqueueAsync(transaction,
                NewNotification.Webhook("billing", "invoice.paid", new JsonObject { ["invoice"] = "INV-7", ["cents"] = 1250 }), TestDatabase.Schema);
            push = await NotificationOutbox.EnqueueAsync(transaction,
                NewNotification.Push("apns:" + ApnsToken, "Your order shipped", "Arrives Friday", new Dictionary<string, string> { ["order"] = "42" })
                    with { Priority = NotificationPriority.Urgent },
                TestDatabase.Schema);
            dataOnly = await NotificationOutbox.EnqueueAsync(transaction,
                NewNotification.Push("fcm:dGVzdA:APA91b-token_1", null, null, new Dictionary<string, string> { ["sync"] = "inbox" }), TestDatabase.Schema);
            await transaction.CommitAsync();
        }

        var options = new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema };
        await using var claim = await new PostgresOutboxStore(_dataSource, options).ClaimAsync(
            [WorkerLane.Urgent, WorkerLane.Normal], 10, CancellationToken.None);
        var messages = claim.Rows.ToDictionary(r => r.Id, r => r.ToMessage());

        var hook = messages[webhook];
        Assert.Equal(("webhook", "billing", "invoice.paid", null), (hook.Channel, hook.Recipient, hook.Subject, hook.Body));
        Assert.Equal("""{"invoice":"INV-7","cents":1250}""", hook.Data);
        var phone = messages[push];
        Assert.Equal(("push", "apns:" + ApnsToken, "Your order shipped", "Arrives Friday"), (phone.Channel, phone.Recipient, phone.Subject, phone.Body));
        Assert.Equal("""{"order":"42"}""", phone.Data);
        var silent = messages[dataOnly];
        Assert.Equal(("push", (string?)null, (string?)null), (silent.Channel, silent.Subject, silent.Body));
        Assert.All(messages.Values, m => Assert.Null(NotificationValidator.Validate(m)));
        // On the wire the channel travels by name; an email's bytes carry none.
        Assert.Contains("\"channel\":\"webhook\"", System.Text.Encoding.UTF8.GetString(MessageSerializer.Serialize(hook)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task EnqueueAsync_EmailOnlyFieldOnAWebhook_RefusedAndNothingInserted()
    {
        var db = await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();

        var refused = await Assert.ThrowsAsync<ArgumentException>(() => NotificationOutbox.EnqueueAsync(transaction,
            NewNotification.Webhook("billing", "invoice.paid", "{}") with { ReplyTo = "ops@example.com" }, TestDatabase.Schema));

        Assert.Equal(nameof(NewNotification.ReplyTo), refused.ParamName);
        Assert.Contains("webhook notification has no ReplyTo", refused.Message, StringComparison.Ordinal);
        await transaction.CommitAsync();
        Assert.Equal(0, await db.CountAsync("outbox"));
    }

    [Fact]
    public async Task Insert_WebhookRowWithATemplate_RefusedByTheCheckConstraint()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();

        var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync($$"""
            INSERT INTO {{TestDatabase.Schema}}.outbox (channel, recipient, template_name, template_data) VALUES ('webhook', 'billing', 't', '{}')
            """));

        Assert.Equal("outbox_prepared_or_templated", refused.ConstraintName);
    }
}
