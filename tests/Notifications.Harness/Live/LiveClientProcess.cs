using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace Notifications.Harness.Live;

/// <summary>
/// <c>live-clients</c>: a share of a live run's clients in a harness process of its own, started by <see cref="LiveClientFleet"/>
/// when the clients do not fit under one process's open-files limit. It connects clients <c>FIRST</c> … <c>FIRST + --clients - 1</c>
/// as the harness's own do, writes their upgrade times, says <see cref="Ready"/>, receives and acks until SIGTERM (writing its
/// counts received every 200 ms; a storm when the harness writes its <see cref="StormFile"/>), then
/// writes every arrival (id, or a topic broadcast's subscriber, and CLOCK_MONOTONIC timestamp, the clock of
/// <see cref="System.Diagnostics.Stopwatch"/> in every process) for the harness to merge.
/// </summary>
internal static class LiveClientProcess
{
    public const string Ready = "live clients connected";
    public const string FirstVariable = "NOTIFICATIONS_BENCH_LIVE_FIRST";
    public const string KeyVariable = "NOTIFICATIONS_BENCH_LIVE_KEY";
    public const string OutputVariable = "NOTIFICATIONS_BENCH_LIVE_OUTPUT";
    private static readonly TimeSpan CountEvery = TimeSpan.FromMilliseconds(200);

    public static async Task<int> RunAsync(HarnessOptions options)
    {
        var live = options.Live;
        int first = int.Parse(Variable(FirstVariable), CultureInfo.InvariantCulture);
        string output = Variable(OutputVariable);
        var stopped = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var term = PosixSignalRegistration.Create(PosixSignal.SIGTERM, context =>
        {
            context.Cancel = true;
            stopped.TrySetResult();
        });
        var arrivals = new LiveArrivals();
        var clients = new LiveClients(arrivals, probe: null, ackSample: 1);
        var times = await clients.ConnectAsync(first, live.Clients, LiveBenchOptions.GatewayUris(live), new LiveTokens(Variable(KeyVariable)));
        await File.WriteAllTextAsync(ConnectFile(output), JsonSerializer.Serialize(times));
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{Ready}: {times.UpgradeMs.Count:N0} of {live.Clients:N0} from {first:N0}"));
        Task? storm = null;
        while (await Task.WhenAny(stopped.Task, Task.Delay(CountEvery)) != stopped.Task)
        {
            // The harness waits on the sum of these to know when everything arrived.
            await WriteWholeAsync(ReceivedFile(output), string.Create(CultureInfo.InvariantCulture, $"{arrivals.Received} {arrivals.BroadcastReceived}"));
            if (storm is null && File.Exists(StormFile(output)))
            {
                storm = StormAsync(clients, output);
            }
        }

        await (storm ?? Task.CompletedTask);
        await clients.DisposeAsync();
        await using (var file = new BinaryWriter(File.Create(ArrivalsFile(output))))
        {
            file.Write(arrivals.Duplicates);
            file.Write(clients.ClosedByGateway);
            file.Write(arrivals.BroadcastAgain);
            var broadcast = arrivals.Broadcast.ToList();
            file.Write(broadcast.Count);
            foreach (var (subscriber, at) in broadcast)
            {
                file.Write(subscriber);
                file.Write(at);
            }

            foreach (var (id, at) in arrivals.All)
            {
                file.Write(id);
                file.Write(at);
            }
        }

        return 0;
    }

    public static string ConnectFile(string output) => output + ".connect.json";

    /// <summary>The storm the harness asks for: the drop's timestamp and the window in ms, space-separated (written whole).</summary>
    public static string StormFile(string output) => output + ".storm";

    /// <summary>The storm's <see cref="LiveStormTimes"/>, written whole once every client is back or given up.</summary>
    public static string StormTimesFile(string output) => output + ".storm.json";

    /// <summary>Writes <paramref name="text"/> to a new file, then renames it over <paramref name="path"/>: a reader sees all or nothing.</summary>
    public static async Task WriteWholeAsync(string path, string text)
    {
        await File.WriteAllTextAsync(path + ".new", text);
        File.Move(path + ".new", path, overwrite: true);
    }

    public static string ArrivalsFile(string output) => output + ".arrivals";

    /// <summary>
    /// The count of distinct notifications received so far and of clients that received the topic broadcast, space-separated,
    /// rewritten every <see cref="CountEvery"/>.
    /// </summary>
    public static string ReceivedFile(string output) => output + ".received";

    private static async Task StormAsync(LiveClients clients, string output)
    {
        string[] storm = (await File.ReadAllTextAsync(StormFile(output))).Split(' ');
        var times = await new LiveStorm(clients).RunAsync(
            long.Parse(storm[0], CultureInfo.InvariantCulture), TimeSpan.FromMilliseconds(double.Parse(storm[1], CultureInfo.InvariantCulture)));
        await WriteWholeAsync(StormTimesFile(output), JsonSerializer.Serialize(times));
    }

    private static string Variable(string name) =>
        Environment.GetEnvironmentVariable(name) ?? throw new InvalidOperationException($"{name} is not set (the live mode sets it)");
}
