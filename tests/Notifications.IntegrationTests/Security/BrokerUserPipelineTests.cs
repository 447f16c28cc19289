using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.IntegrationTests.Pipeline;
using Notifications.Shared.Contract;

namespace Notifications.IntegrationTests.Security;

/// <summary>The pipeline with a broker user per role, as scripts/setup and the stacks run it.</summary>
[Collection("services")]
public sealed class BrokerUserPipelineTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_RoleUsersProducerStartedFirst_EachDeliveredOnceAndAdminHandlesTheDeadLetter()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync(declare: false);
        await using var users = await BrokerRoleUsers.CreateAsync(broker);
        await using var sink = await SmtpSink.StartAsync();
        var ids = await db.InsertAsync(2_000);

        await using (var producer = await WorkerHost.StartProducerAsync(broker, ("RabbitMq:Uri", users.Producer.ToString())))
        {
            // No topology yet and the producer may not declare it: it waits, the rows stay in the outbox.
            var stats = producer.Get<Notifications.Producer.ProducerStats>();
            await Eventually.WaitAsync(() => Task.FromResult(stats.Failures), n => n >= 1, Patience, "the producer found no topology");
            Assert.Equal(ids.Count, await db.CountAsync("outbox"));

            await using (await WorkerHost.StartConsumerAsync(broker, sink, ("RabbitMq:Uri", users.Consumer.ToString())))
            {
                await sink.WaitForMessagesAsync(ids.Count, Patience);
                await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == ids.Count, Patience, "delivery log rows 'sent'");
                // Bad input: the consumer user dead-letters it through the exchange.
                await broker.PublishRawAsync("not json"u8.ToArray(), MessageSerializer.ContentType);
                await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 1, Patience, "the dead letter");
            }
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        Assert.Equal(0, await db.CountAsync("outbox"));
        var admin = new Dictionary<string, string?> { ["RabbitMq:Uri"] = users.Admin.ToString() };
        var list = await AdminRun.InProcessAsync(broker, admin, "", "dead-letters", "list");
        var purge = await AdminRun.InProcessAsync(broker, admin, "", "purge", "dead-letters", "--yes");
        Assert.True(list.ExitCode == 0, list.Error);
        Assert.Contains(": 1 dead letter(s)", list.Output, StringComparison.Ordinal);
        Assert.True(purge.ExitCode == 0, purge.Error);
        Assert.Equal(0u, await broker.CountAsync(broker.Options.DeadLetterQueue));
        Assert.Equal(0u, await broker.CountAsync(broker.Options.Queue));
    }

    [Fact]
    public async Task LiveChannel_RoleUsers_GatewayStartedFirstDeclaresAndBinds_AppReceivesFromTheConsumer()
    {
        await TestDatabase.CleanAsync();
        string key = Live.LiveWire.NewKey();
        await using var broker = await TestBroker.CreateAsync(declare: false);
        await using var users = await BrokerRoleUsers.CreateAsync(broker);
        await using var sink = await SmtpSink.StartAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("RabbitMq:Uri", users.Gateway.ToString()), ("Gateway:TokenKey", key));
        using var ana = await Live.LiveWire.ConnectAsync(gateway, "ana", key);
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, ("RabbitMq:Uri", users.Consumer.ToString()));
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("RabbitMq:Uri", users.Producer.ToString()));

        long id = await TestDatabase.EnqueueAsync(Notifications.Client.NewNotification.Live("ana", "Hello", null));

        Assert.Equal(id.ToString(System.Globalization.CultureInfo.InvariantCulture), await Live.LiveWire.ReceiveIdAsync(ana));
    }
}
