using Microsoft.Extensions.Options;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// <c>Consumer:Lanes</c> on the real services: a consumer of the standard lane alone leaves the urgent queue to others, one of
/// the urgent lane alone leaves the work queue, and together they deliver every notification once.
/// </summary>
[Collection("services")]
public sealed class ConsumerLanesTests
{
    private const int Normal = 60;
    private const int Urgent = 20;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task StandardAloneThenUrgentAlone_EachConsumesItsLaneOnly_EveryNotificationOnce()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        var normal = await db.InsertAsync(Normal, "Your receipt");
        var urgent = await db.InsertAsync(Urgent, "Your code", priority: "urgent");

        await using (var standardAlone = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:Lanes", "Standard")))
        {
            await Eventually.WaitAsync(() => db.CountSentAsync(normal), n => n == Normal, Patience, "normal rows sent by the standard lane's consumer");
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.UrgentQueue), n => n > 0, Patience, "urgent rows published to their queue");
            Assert.Equal(0u, await broker.ConsumersAsync(broker.Options.UrgentQueue));
            Assert.Equal(0, await db.CountSentAsync(urgent));
        }

        var later = await db.InsertAsync(Normal, "Your second receipt");
        await using (var urgentAlone = await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:Lanes", "Urgent")))
        {
            await Eventually.WaitAsync(() => db.CountSentAsync(urgent), n => n == Urgent, Patience, "urgent rows sent by the urgent lane's consumer");
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.Queue), n => n > 0, Patience, "the later normal rows published to the work queue");
            Assert.Equal(0u, await broker.ConsumersAsync(broker.Options.Queue));
            Assert.Equal(0, await db.CountSentAsync(later));
        }

        await using (var both = await WorkerHost.StartConsumerAsync(broker, sink))
        {
            await sink.WaitForMessagesAsync(2 * Normal + Urgent, Patience);
        }

        PipelineTests.AssertExactlyOnce([.. normal, .. urgent, .. later], sink.CountByNotificationId());
        Assert.Empty(await broker.NonEmptyQueuesAsync());
    }

    [Theory]
    [InlineData("0")]
    [InlineData("Fast")]
    public async Task NoLaneOrAnUnknownOne_RefusedAtStart_KeyNamed(string lanes)
    {
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();

        var refused = await Assert.ThrowsAnyAsync<Exception>(() => WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:Lanes", lanes)));

        Assert.Contains("Consumer:Lanes", refused is OptionsValidationException v ? string.Join(' ', v.Failures) : refused.ToString(), StringComparison.Ordinal);
    }
}
