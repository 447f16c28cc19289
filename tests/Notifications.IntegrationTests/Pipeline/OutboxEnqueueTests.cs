using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

[Collection("services")]
public sealed class OutboxEnqueueTests
{
    [Fact]
    public async Task EnqueueAsync_TransactionRolledBack_NeverBecomesAnEmail()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();

        long rolledBack;
        await using (var connection = await TestDatabase.OpenAsync())
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            rolledBack = await NotificationOutbox.EnqueueAsync(transaction, new NewNotification("ghost@example.com", "Never", "never sent"));
            await transaction.RollbackAsync();
        }

        long committed;
        await using (var connection = await TestDatabase.OpenAsync())
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            committed = await NotificationOutbox.EnqueueAsync(transaction, new NewNotification("real@example.com", "Welcome", "hello"));
            await transaction.CommitAsync();
        }

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(1, TimeSpan.FromMinutes(1));
            await Eventually.WaitAsync(() => db.CountAsync("outbox"), n => n == 0, TimeSpan.FromMinutes(1), "outbox drained");
        }

        var received = sink.CountByNotificationId();
        Assert.Equal(1, received.GetValueOrDefault(committed));
        Assert.False(received.ContainsKey(rolledBack), "a rolled-back notification was sent");
        Assert.Equal(1, sink.MessageCount());
    }
}
