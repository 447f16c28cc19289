using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.IntegrationTests.Status;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// Preferences (issue 29, item 2) through the real client, producer, broker and consumer (each worker as its database role)
/// into smtp-sink: a subscriber registered with an email address and opted out of <c>marketing</c> by email gets the
/// <c>orders</c> mail and not the marketing one, which the delivery log records <c>opted_out</c> with who opted out, and
/// <c>admin show</c> says so. In the same run: a category whose email default is off is not sent to a subscriber who never
/// opted in; a critical category is sent even over an opt-out written before it became critical.
/// </summary>
[Collection("services")]
public sealed class PreferenceDeliveryTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_SubscriberOptedOutOfMarketingByEmail_OnlyOrdersArrivesMarketingRecordedOptedOut()
    {
        await TestDatabase.CleanAsync();
        await using (var owner = await TestDatabase.OpenAsync())
        {
            string s = TestDatabase.Schema;
            await owner.ExecuteAsync($"""
                INSERT INTO {s}.category (name, critical) VALUES ('marketing', false), ('orders', false), ('newsletter', false), ('security', true);
                INSERT INTO {s}.category_default (category, channel, enabled) VALUES ('newsletter', 'email', false);
                """);
        }

        await using (var services = AppRegistry.Services())
        {
            var registry = services.GetRequiredService<ISubscriberRegistry>();
            await AppRegistry.InTransactionAsync(commit: true, async tx =>
            {
                await registry.UpsertSubscriberAsync(tx, new Subscriber("ana-1"));
                await registry.AddEmailAsync(tx, "ana-1", "ana@example.com");
                await registry.SetPreferenceAsync(tx, "ana-1", "marketing", "email", enabled: false);
            });
        }

        await using (var owner = await TestDatabase.OpenAsync())
        {
            // An opt-out from before 'security' was made critical: it stays in the table and no longer counts.
            await owner.ExecuteAsync($"""
                INSERT INTO {TestDatabase.Schema}.preference (subscriber_id, category, channel, enabled)
                SELECT id, 'security', 'email', false FROM {TestDatabase.Schema}.subscriber WHERE external_id = 'ana-1'
                """);
        }

        // The recipient in another case than the registry's: the consumer looks it up as the suppression list keys it.
        long marketing = await TestDatabase.EnqueueAsync(new NewNotification("Ana@Example.com", "20% off", "Sale.") { Category = "marketing" });
        long orders = await TestDatabase.EnqueueAsync(new NewNotification("Ana@Example.com", "Shipped", "Order 7 shipped.") { Category = "orders" });
        long newsletter = await TestDatabase.EnqueueAsync(new NewNotification("ana@example.com", "News", "Monthly.") { Category = "newsletter" });
        long security = await TestDatabase.EnqueueAsync(new NewNotification("ana@example.com", "Sign-in code", "123456") { Category = "security" });

        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(2, Patience);
            await StatusProbe.WaitForAsync(marketing, "opted_out");
            await StatusProbe.WaitForAsync(newsletter, "opted_out");
        }

        PipelineTests.AssertExactlyOnce([orders, security], sink.CountByNotificationId());
        await using var connection = await TestDatabase.OpenAsync();
        var log = (await connection.QueryAsync<(long Id, string Status, string? Reason)>(
            $"SELECT notification_id, status, reason FROM {TestDatabase.Schema}.delivery_log ORDER BY notification_id")).ToDictionary(r => r.Id);
        Assert.Equal(("opted_out", "subscriber 'ana-1' opted out of category 'marketing' on email"), (log[marketing].Status, log[marketing].Reason));
        Assert.Equal(("opted_out", "category 'newsletter' is off by default on email and subscriber 'ana-1' has not opted in"),
            (log[newsletter].Status, log[newsletter].Reason));
        Assert.Equal("sent", log[orders].Status);
        Assert.Equal("sent", log[security].Status);
        Assert.Equal(0L, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.dead_letter"));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));

        var (exit, shown) = await StatusProbe.ShowAsync(broker, marketing);
        Assert.Equal(0, exit);
        Assert.Contains("opted out, not sent", shown, StringComparison.Ordinal);
        Assert.Contains("subscriber 'ana-1' opted out of category 'marketing' on email", shown, StringComparison.Ordinal);
    }
}
