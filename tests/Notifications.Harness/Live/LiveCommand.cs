using System.Globalization;
using Notifications.Harness.FanOut;

namespace Notifications.Harness.Live;

/// <summary>
/// <c>live</c>: <c>--runs</c> times a <see cref="LiveRun"/> (N clients on G gateways: connect, idle memory, a steady flow,
/// a broadcast; clients beyond one process's open files in <c>live-clients</c> processes); prints every run and the medians, writes JSON and CSV. Non-zero when a notification was lost or a client
/// failed to connect.
/// </summary>
internal sealed class LiveCommand(BenchEnvironment env, HarnessOptions options, BenchDatabase db, BenchBroker broker)
{
    public async Task<int> RunAsync(string name)
    {
        var live = options.Live;
        if (live.DescriptorShortfall(ProcStat.OpenFilesLimit()) is { } shortfall)
        {
            Console.Error.WriteLine($"error: {shortfall}");
            return 2;
        }

        var rows = new LiveRows(db.DataSource);
        var registry = new FanOutRegistry(db.DataSource);
        var runs = new List<LiveResult>();
        for (int i = 1; i <= options.Runs; i++)
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"==> live run {i} of {options.Runs}: {live.Clients:N0} clients on {live.Gateways} gateway(s), {options.Rate:N0}/s for {options.Duration.TotalSeconds:F0} s{(live.StormWithin is { } within ? $" with a reconnect storm within {within.TotalSeconds:F0} s" : "")}, then a broadcast ({live.Broadcast})"));
            runs.Add(await new LiveRun(env, options, broker, rows, registry).RunAsync(Path.Combine(env.OutputDirectory, name, $"run-{i}")));
            LiveReport.Print([runs[^1]]);
        }

        var medians = LiveMedians.Of(runs);
        Console.WriteLine($"\n==> {runs.Count} run(s)");
        LiveReport.Print(runs);
        LiveReport.PrintMedians(medians);
        LiveReport.Write(env.OutputDirectory, name, new { options = RunCommand.Describe(options), live, runs, medians }, runs);
        return Check(runs);
    }

    /// <summary>
    /// Non-zero when a run lost a notification, or a client did not connect or was closed; with a storm, also when a client
    /// never got back, a gateway was not up throughout, or a row was left pending.
    /// </summary>
    internal static int Check(IReadOnlyList<LiveResult> runs)
    {
        foreach (var r in runs)
        {
            string? error = r switch
            {
                { Connect.Failed: > 0 } => $"{r.Connect.Failed:N0} clients did not connect: {r.Connect.FirstError}",
                { Lost: > 0 } => $"lost {r.Lost:N0} of {r.Inserted:N0} notifications of the steady flow",
                { BroadcastLost: > 0 } => $"lost {r.BroadcastLost:N0} of {r.BroadcastExpected:N0} notifications of the broadcast",
                { ClosedByGateway: > 0 } => $"the gateways closed {r.ClosedByGateway:N0} clients during the run: see their logs",
                { Storm.NeverBack: > 0 } => $"{r.Storm.NeverBack:N0} clients did not get back after the storm: {r.Storm.FirstError}",
                { Storm.Health.Up: false } => $"a gateway was not up through the storm (exited: {r.Storm.Health.Exited}; {r.Storm.Health.Answered:N0} of {r.Storm.Health.Polls:N0} health polls answered)",
                { Storm: not null, PendingLeft: > 0 } => $"{r.PendingLeft:N0} notifications left pending after the storm's run (every client acks what it receives)",
                _ => null,
            };
            if (error is not null)
            {
                Console.Error.WriteLine($"error: {error}");
                return 1;
            }
        }

        return 0;
    }
}
