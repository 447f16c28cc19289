using Notifications.Shared.Data;

namespace Notifications.UnitTests.Consumer;

public sealed class CoalescingBatcherTests
{
    [Fact]
    public async Task SubmitAsync_ManyConcurrentItems_RunAsFewBatchesAndEachGetsItsAnswer()
    {
        var batches = new List<int>();
        var gate = new TaskCompletionSource();
        await using var batcher = new CoalescingBatcher<long>(async (items, _) =>
        {
            await gate.Task;
            lock (batches)
            {
                batches.Add(items.Count);
            }

            return items.Where(i => i % 2 == 0).ToHashSet();
        }, maxBatch: 100, concurrency: 1);

        var answers = Enumerable.Range(1, 250).Select(i => batcher.SubmitAsync(i, CancellationToken.None)).ToArray();
        gate.SetResult();
        bool[] results = await Task.WhenAll(answers).WaitAsync(TimeSpan.FromSeconds(10));

        Assert.Equal(Enumerable.Range(1, 250).Select(i => i % 2 == 0), results);
        Assert.Equal(250, batches.Sum());
        Assert.True(batches.Count <= 4, $"expected coalescing, got {batches.Count} batches");
        Assert.All(batches, size => Assert.True(size <= 100));
    }

    [Fact]
    public async Task SubmitAsync_ExclusiveSameItemThreeTimesAtOnce_TrueForOneCallerOnly()
    {
        var gate = new TaskCompletionSource();
        var claimed = new HashSet<long>();
        await using var batcher = new CoalescingBatcher<long>(async (items, _) =>
        {
            await gate.Task;
            lock (claimed)
            {
                // As the mark statement: each item claimed once, whichever batch asks first.
                return items.Distinct().Where(claimed.Add).ToHashSet();
            }
        }, maxBatch: 100, concurrency: 1, exclusive: true);

        var first = batcher.SubmitAsync(1, CancellationToken.None);
        var copies = Enumerable.Range(0, 3).Select(_ => batcher.SubmitAsync(7, CancellationToken.None)).ToArray();
        gate.SetResult();
        bool[] answers = await Task.WhenAll(copies).WaitAsync(TimeSpan.FromSeconds(10));

        Assert.True(await first);
        Assert.Single(answers, owns => owns);
    }

    [Fact]
    public async Task SubmitAsync_BatchFails_EveryCallerInItSeesTheException()
    {
        await using var batcher = new CoalescingBatcher<long>(
            (_, _) => Task.FromException<IReadOnlySet<long>>(new InvalidOperationException("database down")), maxBatch: 10);

        var ex = await Assert.ThrowsAsync<InvalidOperationException>(() => batcher.SubmitAsync(1, CancellationToken.None));

        Assert.Equal("database down", ex.Message);
    }

    [Fact]
    public async Task DisposeAsync_ItemsQueued_FinishesThemFirst()
    {
        var batcher = new CoalescingBatcher<long>(async (items, ct) =>
        {
            await Task.Delay(20, ct);
            return items.ToHashSet();
        }, maxBatch: 5);
        var answers = Enumerable.Range(1, 20).Select(i => batcher.SubmitAsync(i, CancellationToken.None)).ToArray();

        await batcher.DisposeAsync();

        Assert.All(answers, a => Assert.True(a.IsCompletedSuccessfully && a.Result));
    }
}
