using Dapper;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Shutdown;

/// <summary>
/// SIGTERM to a producer process in the middle of a large backlog published in small batches: it exits 0
/// and every row is in exactly one place, still in the outbox or published once, never both, never neither.
/// </summary>
[Collection("services")]
public sealed class ProducerShutdownTests
{
    private const int Total = 30_000;
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(1);

    [Fact]
    public async Task Sigterm_WhilePublishingBacklog_ExitsZeroAndEachRowIsInOutboxXorQueue()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var queue = await QueueProbe.OpenAsync(broker);
        var ids = await db.InsertAsync(Total);

        await using var producer = WorkerProcess.Start("Producer", broker, ("Producer:BatchSize", "50"), ("Producer:EnvelopeSize", "10"));
        await producer.WaitWhileRunningAsync(queue.ReadyAsync, n => n >= 200, Patience, "publishing under way (2,000 rows)");
        await producer.TerminateAsync();

        int exitCode = await producer.WaitForExitAsync(TimeSpan.FromSeconds(40));
        var inOutbox = await OutboxIdsAsync();
        var published = await queue.TakeIdsAsync((int)await queue.ReadyAsync(), Patience);

        string output = producer.Output;
        Assert.True(exitCode == 0, $"exit code {exitCode}{Environment.NewLine}{output}");
        Assert.True(inOutbox.Count > 0, "the outbox drained before the signal: the test proved nothing");
        Assert.Empty(published.Intersect(inOutbox).Take(10));
        Assert.Equal(published.Count, published.Distinct().Count());
        Assert.Equal(ids.Order(), inOutbox.Concat(published).Order());
        Assert.Contains("Application is shutting down", output, StringComparison.Ordinal);
        Assert.Contains($"Producer stopped after publishing {published.Count} notifications", output, StringComparison.Ordinal);
    }

    private static async Task<IReadOnlyList<long>> OutboxIdsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT id FROM {TestDatabase.Schema}.outbox")).AsList();
    }
}
