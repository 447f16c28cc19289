using System.Text.Json;
using Notifications.Harness;
using Notifications.Shared.Observability.Hops;

namespace Notifications.UnitTests.Harness;

public sealed class HopTableTests
{
    private static readonly JsonSerializerOptions Json = new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };
    private static readonly DateTimeOffset Window = new(2026, 11, 25, 12, 0, 0, TimeSpan.Zero);

    private static HistogramSnapshot Seconds(params double[] values)
    {
        var histogram = new BucketHistogram(LatencyBuckets.EndToEnd);
        Array.ForEach(values, histogram.Record);
        return histogram.Snapshot();
    }

    private static JsonElement Report(HopEntry[] hops, WindowEntry[]? windows = null) =>
        JsonSerializer.SerializeToElement(new { delivered = 1, hops, windows = windows ?? [] }, Json);

    [Fact]
    public void Merge_TwoConsumers_PercentilesOfTheMergedCountsNotTheMaxOfEach()
    {
        // One consumer fast (99 x 2.5 ms), the other with one slow delivery: together, p99 is still in the fast bucket.
        var fast = Report([HopEntry.From("end_to_end", "all", Seconds([.. Enumerable.Repeat(0.0025, 99)]))]);
        var slow = Report([HopEntry.From("end_to_end", "all", Seconds(0.300))]);

        var row = Assert.Single(HopTable.Merge([], [fast, slow]));

        Assert.Equal(("consumer", "end_to_end", "all", 100L), (row.Worker, row.Hop, row.Lane, row.Count));
        Assert.InRange(row.P99Ms, 2, 3);
        Assert.Equal(300, row.MaxMs, 6);
    }

    [Fact]
    public void Merge_ProducerAndConsumerHopsAndLanes_InTheOrderANotificationPassesThem()
    {
        var producer = Report([HopEntry.From("claim_wait", "all", Seconds(0.004)), HopEntry.From("claim_wait", "urgent", Seconds(0.004))]);
        var consumer = Report([HopEntry.From("end_to_end", "all", Seconds(0.010)), HopEntry.From("queue_wait", "all", Seconds(0.001))]);

        var rows = HopTable.Merge([producer], [consumer]);

        Assert.Equal(["producer claim_wait all", "producer claim_wait urgent", "consumer queue_wait all", "consumer end_to_end all"],
            rows.Select(r => $"{r.Worker} {r.Hop} {r.Lane}"));
    }

    [Fact]
    public void Merge_ReportWithoutHops_Ignored() =>
        Assert.Empty(HopTable.Merge([], [JsonSerializer.SerializeToElement(new { delivered = 3 })]));

    [Fact]
    public void MergeWindows_SameStartAcrossConsumers_OneWindowWithOffsets()
    {
        var a = Report([], [WindowEntry.From(Window, Seconds(0.002)), WindowEntry.From(Window.AddSeconds(5), Seconds(0.500))]);
        var b = Report([], [WindowEntry.From(Window, Seconds(0.004))]);

        var windows = HopTable.MergeWindows([a, b]);

        Assert.Equal([(0.0, 2L), (5.0, 1L)], windows.Select(w => (w.OffsetSeconds, w.Count)));
        Assert.Equal(4, windows[0].MaxMs, 6);
        Assert.Equal(500, windows[1].P99Ms, 6);
    }
}
