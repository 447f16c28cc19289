using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// The workers' stats files (Consumer:StatsFile, Producer:StatsFile) after a real run: every hop recorded, the queue wait
/// (which needs the producer's x-published-at header to travel through the broker) included, per lane and per window.
/// </summary>
[Collection("services")]
public sealed class HopReportTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);
    private readonly string _directory = Directory.CreateTempSubdirectory("hop-report-").FullName;

    [Fact]
    public async Task StatsFiles_AfterDeliveries_EveryHopRecordedAndEndToEndCountsEachDelivery()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var normal = await db.InsertAsync(300);
        var bulk = await db.InsertAsync(100, priority: "bulk");
        string consumerFile = Path.Combine(_directory, "consumer.json"), producerFile = Path.Combine(_directory, "producer.json");

        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Consumer:StatsFile", consumerFile)))
        await using (await WorkerHost.StartProducerAsync(broker, ("Producer:StatsFile", producerFile), ("Producer:EnvelopeSize", "20")))
        {
            await sink.WaitForMessagesAsync(normal.Count + bulk.Count, Patience);
            await Eventually.WaitAsync(() => db.CountLogAsync("sent"), n => n == normal.Count + bulk.Count, Patience, "delivery log rows 'sent'");
        }

        using var consumer = JsonDocument.Parse(await File.ReadAllTextAsync(consumerFile));
        using var producer = JsonDocument.Parse(await File.ReadAllTextAsync(producerFile));
        var consumerHops = Hops(consumer);
        var producerHops = Hops(producer);

        Assert.Equal(400, consumerHops[("end_to_end", "all")].GetProperty("count").GetInt64());
        Assert.Equal(400, consumerHops[("end_to_end", "standard")].GetProperty("count").GetInt64());
        Assert.Equal(400, consumerHops[("log_write", "all")].GetProperty("count").GetInt64());
        Assert.Equal(400, consumerHops[("ack", "all")].GetProperty("count").GetInt64());
        Assert.Equal(400, consumerHops[("send", "all")].GetProperty("count").GetInt64());
        // One per message: 400 rows in envelopes of up to 20.
        Assert.InRange(consumerHops[("queue_wait", "standard")].GetProperty("count").GetInt64(), 20, 400);
        Assert.Equal(400, consumer.RootElement.GetProperty("windows").EnumerateArray().Sum(w => w.GetProperty("count").GetInt64()));
        double p99 = consumer.RootElement.GetProperty("latencyP99Ms").GetDouble();
        Assert.InRange(p99, 0.001, consumer.RootElement.GetProperty("latencyMaxMs").GetDouble());

        Assert.InRange(producerHops[("claim_wait", "standard")].GetProperty("count").GetInt64(), 1, 400);
        Assert.True(producerHops.ContainsKey(("claim", "urgent")), "the urgent loop's (empty) claims are timed too");
        Assert.Equal(producerHops[("claim_wait", "all")].GetProperty("count").GetInt64(),
            producerHops[("publish_confirm", "all")].GetProperty("count").GetInt64());
    }

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    private static Dictionary<(string Hop, string Lane), JsonElement> Hops(JsonDocument report) =>
        report.RootElement.GetProperty("hops").EnumerateArray()
            .ToDictionary(h => (h.GetProperty("hop").GetString()!, h.GetProperty("lane").GetString()!));
}
