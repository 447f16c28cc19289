using BenchmarkDotNet.Attributes;
using Notifications.Consumer.Settling;

namespace Notifications.Benchmarks;

/// <summary>Planning one flush of the ack batcher: N finished tags, one slow message in the middle of the window.</summary>
[MemoryDiagnoser]
public class AckPlanBenchmarks
{
    private List<ulong> _finished = [];

    [Params(64, 512)]
    public int Finished { get; set; }

    [GlobalSetup]
    public void Setup()
    {
        // Finished in roughly but not exactly delivery order, as concurrent handlers finish.
        var random = new Random(42);
        _finished = Enumerable.Range(1, Finished + 1).Select(i => (ulong)i).Where(t => t != (ulong)(Finished / 2)).OrderBy(t => t + (ulong)random.Next(8)).ToList();
    }

    [Benchmark]
    public object AllBelowLowest() => AckPlan.Create(_finished, lowestInProgress: null);

    [Benchmark]
    public object SlowMessageInTheMiddle() => AckPlan.Create(_finished, lowestInProgress: (ulong)(Finished / 2));
}
