using System.Text;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>Bad rows and bad bytes are dead-lettered with a reason; everything around them still flows.</summary>
[Collection("services")]
public sealed class BadInputTests
{
    [Fact]
    public async Task Pipeline_InvalidRowsAmongValidOnes_InvalidDeadLetteredWithReasonValidDelivered()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var before = await db.InsertAsync(200);
        var bad = new Dictionary<long, string>
        {
            // What the table's checks cannot say (migrations 023 and 027 refuse CR/LF, display names, lists, a missing @,
            // consecutive dots and a body over 1 MiB at the insert): the address syntax beyond them, a second @ here.
            [await db.InsertRawAsync("a@b@example.com", "two at signs")] = "is not a single e-mail address",
            [await db.InsertRawAsync("c\"d@example.com", "unbalanced quote")] = "is not a single e-mail address",
        };
        var after = await db.InsertAsync(200);

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(before.Count + after.Count, TimeSpan.FromMinutes(2));
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == bad.Count,
                TimeSpan.FromMinutes(1), "dead letters");
        }

        PipelineTests.AssertExactlyOnce([.. before, .. after], sink.CountByNotificationId());
        var deadLetters = await broker.DrainDeadLettersAsync();
        Assert.Equal(bad.Count, deadLetters.Count);
        foreach (var (id, expectedReason) in bad)
        {
            var letter = Assert.Single(deadLetters, d => d.Body.Contains($"\"id\":{id},", StringComparison.Ordinal));
            Assert.Contains(expectedReason, letter.Reason, StringComparison.Ordinal);
        }
    }

    [Fact]
    public async Task Consumer_GarbageBytesAndWrongContentType_DeadLetteredAndConsumerKeepsGoing()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await broker.PublishRawAsync([0xC3, 0x28, 0xFF, 0x00], "application/json");
        await broker.PublishRawAsync(Encoding.UTF8.GetBytes("{\"id\":5,\"recipient\":\"x@example.com\""), "application/json");
        await broker.PublishRawAsync(Encoding.UTF8.GetBytes("<xml/>"), "text/xml");
        var ids = await db.InsertAsync(100);

        await using (await WorkerHost.StartConsumerAsync(broker, sink))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(ids.Count, TimeSpan.FromMinutes(1));
            await Eventually.WaitAsync(() => broker.CountAsync(broker.Options.DeadLetterQueue), n => n == 3,
                TimeSpan.FromMinutes(1), "dead letters");
        }

        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        var reasons = (await broker.DrainDeadLettersAsync()).Select(d => d.Reason).ToList();
        Assert.Equal(2, reasons.Count(r => r.StartsWith("undeserializable", StringComparison.Ordinal)));
        Assert.Single(reasons, r => r.StartsWith("wrong content type", StringComparison.Ordinal));
    }
}
