using System.Globalization;
using System.Text;
using System.Text.Json;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;
using Notifications.Shared.Contract;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>
/// The original experiment's consumer (tests/Notifications.Baseline, the benchmark's baseline) as its own
/// process against the real broker, database and smtp-sink: it must deliver every notification once, log
/// it, skip one the log already has, dead-letter bad bytes, leave the queue empty and write the report the
/// harness reads, stopping itself by the killswitch.
/// </summary>
[Collection("services")]
public sealed class BaselineConsumerTests
{
    private const int Total = 200;
    private const long AlreadySent = Total + 1;
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(20);

    [Fact]
    public async Task Backlog_DeliveredOnceLoggedAckedAndReported_ThenKillswitchStops()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var queue = await QueueProbe.OpenAsync(broker);
        await using var sink = await SmtpSink.StartAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync(
                $"INSERT INTO {TestDatabase.Schema}.delivery_log (notification_id, status) VALUES (@Id, 'sent')", new { Id = AlreadySent });
        }

        await broker.PublishShippedAsync(Enumerable.Range(1, (int)AlreadySent).Select(id => (long)id));

        await broker.PublishRawAsync(Encoding.UTF8.GetBytes("{not json"), MessageSerializer.ContentType);
        string stats = Path.Combine(Path.GetTempPath(), $"baseline-{Guid.NewGuid():N}.json");
        await using var baseline = WorkerProcess.StartDll(RepositoryLayout.BaselineDll(), broker,
            ("Smtp:Host", sink.Host), ("Smtp:Port", sink.Port.ToString(CultureInfo.InvariantCulture)), ("Smtp:Security", "None"),
            ("Consumer:Handlers", "8"), ("Consumer:Prefetch", "10"), ("Consumer:RunFor", "00:00:04"), ("Consumer:StatsFile", stats));

        await baseline.WaitWhileRunningAsync(() => Task.FromResult(sink.MessageCount()), n => n >= Total, Patience, "every notification at the sink");
        int exitCode = await baseline.WaitForExitAsync(Patience);
        string output = baseline.Output;

        Assert.True(exitCode == 0, $"exit code {exitCode}{Environment.NewLine}{output}");
        Assert.Contains("Consumer started", output, StringComparison.Ordinal);
        var atSink = sink.CountByNotificationId();
        Assert.Equal(Enumerable.Range(1, Total).Select(i => (long)i), atSink.Keys.Order());
        Assert.All(atSink, kv => Assert.Equal(1, kv.Value));
        Assert.Equal(Total + 1, await db.CountLogAsync("sent"));
        Assert.Equal(Total, await db.CountSentAsync([.. Enumerable.Range(1, Total).Select(i => (long)i)]));
        // The process is gone: anything it took and did not ack would be back in the queue now.
        Assert.Equal(0u, await queue.ReadyAsync());
        var dead = await broker.DrainDeadLettersAsync();
        Assert.Equal("{not json", Assert.Single(dead).Body);
        Assert.StartsWith("undeserializable", dead[0].Reason, StringComparison.Ordinal);

        using var report = JsonDocument.Parse(await File.ReadAllTextAsync(stats));
        File.Delete(stats);
        var root = report.RootElement;
        Assert.Equal(Total, root.GetProperty("delivered").GetInt64());
        Assert.Equal(1, root.GetProperty("duplicates").GetInt64());
        Assert.Equal(Total, root.GetProperty("windowDelivered").GetInt64());
        Assert.Equal(4.0, root.GetProperty("windowSeconds").GetDouble());
        double p50 = root.GetProperty("latencyP50Ms").GetDouble(), p99 = root.GetProperty("latencyP99Ms").GetDouble();
        Assert.True(p50 > 0 && p50 <= p99 && p99 <= root.GetProperty("latencyMaxMs").GetDouble(), report.RootElement.ToString());
    }
}
