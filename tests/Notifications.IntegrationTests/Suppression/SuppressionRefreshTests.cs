using System.Diagnostics;
using Notifications.Consumer.Suppression;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;
using Notifications.IntegrationTests.Status;
using Xunit.Abstractions;

namespace Notifications.IntegrationTests.Suppression;

/// <summary>
/// How long after another process changes the list a running consumer honors it: the admin tool, run as its own process,
/// adds and removes entries; the consumer's copy is watched until it agrees (docs/suppression.md has the figures).
/// </summary>
[Collection("services")]
public sealed class SuppressionRefreshTests(ITestOutputHelper output)
{
    // Whole: the list fits in the copy. On demand: 20 entries over a copy of 10, so keys are looked up and their answers kept.
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Refresh_EntryAddedAndRemovedByAnotherProcess_HonoredWithinTheInterval(bool onDemand)
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var interval = TimeSpan.FromSeconds(2);   // Suppression:RefreshInterval's default
        if (onDemand)
        {
            var store = SuppressionProbe.Store();
            for (int i = 0; i < 20; i++)
            {
                await store.AddAsync($"filler{i}@example.com", "manual", "all", null, CancellationToken.None);
            }
        }

        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, onDemand ? [("Suppression:CacheEntries", "10")] : []);
        var cache = consumer.Get<SuppressionCache>();
        var list = consumer.Get<SuppressionList>();
        await cache.WaitLoadedAsync(CancellationToken.None);
        Assert.Equal(!onDemand, cache.IsWhole);

        var added = new List<TimeSpan>();
        var removed = new List<TimeSpan>();
        // Three rounds for the figure (docs/suppression.md); on demand one shows the held answer taken back.
        for (int i = 0; i < (onDemand ? 1 : 3); i++)
        {
            string address = $"late{i}@example.com";
            // Asked before: on demand, the copy now holds "not listed" for it, which the refresh must take back.
            Assert.Null(await list.MatchAsync(address, bulk: true, CancellationToken.None));
            await AdminAsync("suppression", "add", address, "--all-mail");
            added.Add(await UntilAsync(async () => await list.MatchAsync(address, bulk: false, CancellationToken.None) is not null));
            await AdminAsync("suppression", "remove", address);
            removed.Add(await UntilAsync(async () => await list.MatchAsync(address, bulk: true, CancellationToken.None) is null));
        }

        output.WriteLine($"honored after add: {string.Join(", ", added.Select(t => $"{t.TotalMilliseconds:F0} ms"))}; after remove: {string.Join(", ", removed.Select(t => $"{t.TotalMilliseconds:F0} ms"))}");
        // A refresh every interval, plus one read's round trip: never a full interval late beyond that.
        Assert.All(added.Concat(removed), t => Assert.InRange(t, TimeSpan.Zero, interval + TimeSpan.FromSeconds(1.5)));

        // And the pipeline honors it: an entry added by another process stops the next notification.
        await AdminAsync("suppression", "add", "@late.example", "--all-mail");
        await UntilAsync(async () => await list.MatchAsync("x@late.example", bulk: false, CancellationToken.None) is not null);
        long id = await SuppressionProbe.EnqueueAsync("x@late.example");
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await StatusProbe.WaitForAsync(id, "suppressed");
        }

        Assert.Equal(0, sink.MessageCount());
        Assert.True(cache.Count <= cache.Capacity, $"{cache.Count} keys held, over {cache.Capacity}");
    }

    private static async Task AdminAsync(params string[] args)
    {
        var (exit, _, error) = await AdminRun.ProcessAsync([.. args, "--database", TestServices.PostgresConnectionString]);
        Assert.True(exit == 0, error);
    }

    // From the admin process's exit (its change committed) until the consumer's copy agrees.
    private static async Task<TimeSpan> UntilAsync(Func<Task<bool>> honored)
    {
        var clock = Stopwatch.StartNew();
        while (!await honored())
        {
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(30), "not honored within 30 s");
            await Task.Delay(10);
        }

        return clock.Elapsed;
    }
}
