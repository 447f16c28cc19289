using System.Globalization;
using System.Runtime.InteropServices;
using System.Text.Json;

namespace Notifications.Harness.Live;

/// <summary>
/// <c>live-clients</c>: a share of a live run's clients in a harness process of its own, started by <see cref="LiveClientFleet"/>
/// when the clients do not fit under one process's open-files limit. It connects clients <c>FIRST</c> … <c>FIRST + --clients - 1</c>
/// as the harness's own do, writes their upgrade times, says <see cref="Ready"/>, receives and acks until SIGTERM (writing its
/// count received every 200 ms), then
/// writes every arrival (id and CLOCK_MONOTONIC timestamp, the clock of <see cref="System.Diagnostics.Stopwatch"/> in every
/// process) for the harness to merge.
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
        while (await Task.WhenAny(stopped.Task, Task.Delay(CountEvery)) != stopped.Task)
        {
            // The harness waits on the sum of these to know when everything arrived; written whole, then renamed.
            await File.WriteAllTextAsync(ReceivedFile(output) + ".new", arrivals.Received.ToString(CultureInfo.InvariantCulture));
            File.Move(ReceivedFile(output) + ".new", ReceivedFile(output), overwrite: true);
        }

        await clients.DisposeAsync();
        await using (var file = new BinaryWriter(File.Create(ArrivalsFile(output))))
        {
            file.Write(arrivals.Duplicates);
            file.Write(clients.ClosedByGateway);
            foreach (var (id, at) in arrivals.All)
            {
                file.Write(id);
                file.Write(at);
            }
        }

        return 0;
    }

    public static string ConnectFile(string output) => output + ".connect.json";

    public static string ArrivalsFile(string output) => output + ".arrivals";

    /// <summary>The count of distinct notifications received so far, rewritten every <see cref="CountEvery"/>.</summary>
    public static string ReceivedFile(string output) => output + ".received";

    private static string Variable(string name) =>
        Environment.GetEnvironmentVariable(name) ?? throw new InvalidOperationException($"{name} is not set (the live mode sets it)");
}
