using System.Diagnostics;
using System.Globalization;
using Notifications.Harness.FanOut;

namespace Notifications.Harness.Live;

/// <summary>
/// The broadcast to every connected client that ends a run (<c>--broadcast</c>), watched until every client has it (or
/// <see cref="Patience"/>). <c>topic</c>: one audience row to <see cref="LiveBenchOptions.TopicName"/>, which
/// <see cref="SeedAsync"/> filled with every client's subscriber before the run, under <see cref="Subject"/>, so the clients
/// count its frames by subscriber, whatever ids the fan-out gives them (<see cref="LiveArrivals.RecordBroadcast"/>); expected:
/// the connected clients. <c>rows</c>: a broadcast as it looked before topics reached the live channel, one live row per
/// subscriber in one transaction, counted by id. The seconds from the commit to 50 %, 90 % and 100 % received come from the
/// arrivals once every client process has handed its own over.
/// </summary>
internal sealed class LiveBroadcast(LiveRows rows, FanOutRegistry registry, string kind)
{
    /// <summary>The topic broadcast's subject: what tells its frames from the steady flow's.</summary>
    public const string Subject = "bench-live-broadcast";

    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(120);
    private long[] _ids = [];
    private long _committed;

    public long Expected { get; private set; }

    /// <summary>How long the insert's transaction took, begin to commit, s.</summary>
    public double InsertSeconds { get; private set; }

    private bool Topic => kind == LiveBenchOptions.TopicBroadcast;

    /// <summary>For a topic broadcast, before the run: the registry emptied, then <paramref name="clients"/> subscribers, all in the topic.</summary>
    public async Task SeedAsync(int clients)
    {
        if (!Topic)
        {
            return;
        }

        var clock = Stopwatch.StartNew();
        await registry.ClearRegistryAsync();
        await registry.SeedTopicAsync(LiveBenchOptions.SubscriberPrefix, clients, LiveBenchOptions.TopicName);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  registry: {clients:N0} subscribers, all in topic {LiveBenchOptions.TopicName} ({clock.Elapsed.TotalSeconds:F1} s)"));
    }

    /// <summary>
    /// Sends the broadcast to the <paramref name="connected"/> clients of <paramref name="subscribers"/>, then waits until
    /// every client has it: <paramref name="received"/> (all clients' distinct ids) grew by as many rows, or
    /// <paramref name="topicReceived"/> (clients with a frame of the topic's) reached the connected.
    /// </summary>
    public async Task RunAsync(string[] subscribers, int connected, Func<long> received, Func<long> topicReceived)
    {
        long before = received();
        long started = Stopwatch.GetTimestamp();
        if (Topic)
        {
            _committed = await rows.InsertTopicAsync(LiveBenchOptions.TopicName, Subject);
            Expected = connected;
        }
        else
        {
            (_ids, _committed) = await rows.InsertAsync(subscribers);
            Expected = _ids.Length;
        }

        InsertSeconds = Stopwatch.GetElapsedTime(started, _committed).TotalSeconds;
        Console.WriteLine(Topic
            ? $"  broadcast: one row to a topic of {Expected:N0}, committed in {InsertSeconds:F2} s"
            : $"  broadcast: {Expected:N0} rows in one transaction, committed in {InsertSeconds:F2} s");
        Func<long> arrived = Topic ? topicReceived : () => received() - before;
        while (arrived() < Expected && Stopwatch.GetElapsedTime(_committed) < Patience)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100));
        }
    }

    /// <summary>Received, and seconds from the commit to 50 %, 90 %, 100 % of the expected received (null: never).</summary>
    public (long Received, double? S50, double? S90, double? S100) Milestones(LiveArrivals arrivals)
    {
        var arrivedAt = Topic ? arrivals.Broadcast.Select(b => b.Value) : _ids.Select(arrivals.ArrivalOf).OfType<long>();
        var seconds = arrivedAt.Select(at => Math.Max(0, Stopwatch.GetElapsedTime(_committed, at).TotalSeconds)).Order().ToList();
        return (seconds.Count, At(seconds, 0.50), At(seconds, 0.90), At(seconds, 1.00));
    }

    // Seconds until `share` of the expected had arrived, or null if they never did.
    private double? At(List<double> seconds, double share)
    {
        int needed = (int)Math.Ceiling(share * Expected);
        return needed <= seconds.Count && needed > 0 ? seconds[needed - 1] : null;
    }
}
