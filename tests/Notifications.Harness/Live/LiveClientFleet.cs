using System.Globalization;
using System.Text.Json;

namespace Notifications.Harness.Live;

/// <summary>
/// The clients beyond what the harness holds itself: <c>live-clients</c> processes (<see cref="LiveClientProcess"/>), each
/// holding up to one process's share, started before the harness connects its own and stopped (SIGTERM) after the run, when
/// their arrivals are merged into the harness's.
/// </summary>
internal sealed class LiveClientFleet(HarnessOptions options, string runDirectory, string tokenKey) : IDisposable
{
    private static readonly TimeSpan ConnectPatience = TimeSpan.FromMinutes(10);
    private readonly List<(WorkerProcess Process, string Output, int Clients)> _processes = [];

    public IEnumerable<int> Pids => _processes.Where(p => !p.Process.HasExited).Select(p => p.Process.Id);

    public bool Any => _processes.Count > 0;

    /// <summary>Starts processes for clients <paramref name="first"/> … <paramref name="last"/>, <paramref name="perProcess"/> each.</summary>
    public void Start(int first, int last, int perProcess)
    {
        var live = options.Live;
        for (int from = first; from <= last; from += perProcess)
        {
            int count = Math.Min(perProcess, last - from + 1);
            string name = $"clients-{_processes.Count}";
            string output = Path.Combine(runDirectory, name);
            var environment = new Dictionary<string, string>(StringComparer.Ordinal)
            {
                [LiveClientProcess.FirstVariable] = from.ToString(CultureInfo.InvariantCulture),
                [LiveClientProcess.KeyVariable] = tokenKey,
                [LiveClientProcess.OutputVariable] = output,
            };
            string[] arguments = ["live-clients", "--clients", Invariant(count), "--gateways", Invariant(live.Gateways), "--gateway-port", Invariant(live.GatewayPort)];
            _processes.Add((WorkerProcess.Start(BenchEnvironment.HarnessDll, name, environment, output + ".log", LiveClientProcess.Ready, arguments), output, count));
        }
    }

    /// <summary>Waits until every process has connected its clients; their upgrade times.</summary>
    public async Task<List<LiveConnectTimes>> WaitConnectedAsync()
    {
        await Task.WhenAll(_processes.Select(p => p.Process.WaitReadyAsync(ConnectPatience)));
        return _processes.Select(p => JsonSerializer.Deserialize<LiveConnectTimes>(File.ReadAllText(LiveClientProcess.ConnectFile(p.Output)))!).ToList();
    }

    /// <summary>Distinct notifications the processes' clients received, as they last wrote it (up to 200 ms old).</summary>
    public long Received() => Count(0);

    /// <summary>The processes' clients that received the topic broadcast, as they last wrote it (up to 200 ms old).</summary>
    public long BroadcastReceived() => Count(1);

    /// <summary>
    /// Has every process drop its clients at <paramref name="dropAt"/> and connect them again within <paramref name="within"/>
    /// (<see cref="LiveStorm"/>); each one's times once all its clients are back or given up.
    /// </summary>
    public async Task<List<LiveStormTimes>> StormAsync(long dropAt, TimeSpan within)
    {
        string storm = string.Create(CultureInfo.InvariantCulture, $"{dropAt} {within.TotalMilliseconds}");
        await Task.WhenAll(_processes.Select(p => LiveClientProcess.WriteWholeAsync(LiveClientProcess.StormFile(p.Output), storm)));
        var deadline = DateTime.UtcNow + LiveStorm.Patience(within) + TimeSpan.FromSeconds(30);
        while (!_processes.All(p => File.Exists(LiveClientProcess.StormTimesFile(p.Output))) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(TimeSpan.FromMilliseconds(100));
        }

        // A process that never answered counts all its clients as never back.
        return _processes.Select(p => File.Exists(LiveClientProcess.StormTimesFile(p.Output))
            ? JsonSerializer.Deserialize<LiveStormTimes>(File.ReadAllText(LiveClientProcess.StormTimesFile(p.Output)))!
            : new LiveStormTimes([], [], 0, p.Clients, $"{p.Process.Name} reported no storm")).ToList();
    }

    /// <summary>Stops the processes and merges their arrivals into <paramref name="arrivals"/>; the connections the gateways closed.</summary>
    public async Task<long> StopAsync(LiveArrivals arrivals)
    {
        _processes.ForEach(p => p.Process.Terminate());
        await Task.WhenAll(_processes.Select(p => p.Process.WaitForExitAsync(TimeSpan.FromSeconds(60))));
        long closed = 0;
        foreach (var (_, output, _) in _processes)
        {
            using var file = new BinaryReader(File.OpenRead(LiveClientProcess.ArrivalsFile(output)));
            long duplicates = file.ReadInt64();
            closed += file.ReadInt64();
            long broadcastAgain = file.ReadInt64();
            var broadcast = Enumerable.Range(0, file.ReadInt32()).Select(_ => (file.ReadString(), file.ReadInt64())).ToList();
            var received = new List<(long, long)>();
            while (file.BaseStream.Position < file.BaseStream.Length)
            {
                received.Add((file.ReadInt64(), file.ReadInt64()));
            }

            arrivals.Merge(received, duplicates, broadcast, broadcastAgain);
        }

        return closed;
    }

    public void Dispose() => _processes.ForEach(p => p.Process.Dispose());

    // Field `field` of the processes' received files (LiveClientProcess.ReceivedFile), summed; a file not written yet counts 0.
    private long Count(int field) => _processes.Sum(p => File.Exists(LiveClientProcess.ReceivedFile(p.Output))
        && File.ReadAllText(LiveClientProcess.ReceivedFile(p.Output)).Split(' ') is { } fields && fields.Length > field
        && long.TryParse(fields[field], NumberStyles.None, CultureInfo.InvariantCulture, out long n) ? n : 0);

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
