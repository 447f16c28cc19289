using System.Diagnostics;
using System.Net;

namespace Notifications.Harness.Live;

/// <summary>
/// Whether the gateways stayed up through a storm: every <see cref="Every"/> each gateway's operations endpoint
/// (<c>/health/ready</c>, on its own port: docs/live.md "Operations") is asked, with <see cref="Timeout"/> to answer, and its
/// process looked at. Answered: any HTTP status in time; ready: 200 (its broker connection, database and public port all
/// well). The longest a gateway went without answering is kept.
/// </summary>
internal sealed class LiveGatewayWatch(WorkerFleet fleet, int firstPort) : IAsyncDisposable
{
    private static readonly TimeSpan Every = TimeSpan.FromMilliseconds(250);
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(2);
    private readonly HttpClient _http = new() { Timeout = Timeout };
    private readonly CancellationTokenSource _stop = new();
    private readonly Lock _gate = new();
    private Task _loop = Task.CompletedTask;
    private int _polls;
    private int _answered;
    private int _ready;
    private bool _exited;
    private double _longestSilenceMs;

    public void Start() => _loop = RunAsync(_stop.Token);

    /// <summary>Stops asking: polls, answered, ready, whether a gateway exited, the longest silence (ms).</summary>
    public async Task<LiveGatewayHealth> StopAsync()
    {
        await _stop.CancelAsync();
        await _loop;
        // The loop has ended: nothing counts any more.
        return new LiveGatewayHealth(_polls, _answered, _ready, _exited || fleet.Gateways.Any(g => g.HasExited), _longestSilenceMs);
    }

    public async ValueTask DisposeAsync()
    {
        if (!_stop.IsCancellationRequested)
        {
            await StopAsync();
        }

        _http.Dispose();
        _stop.Dispose();
    }

    private async Task RunAsync(CancellationToken cancellationToken)
    {
        var lastAnswer = fleet.Gateways.Select(_ => Stopwatch.GetTimestamp()).ToArray();
        using var tick = new PeriodicTimer(Every);
        try
        {
            while (await tick.WaitForNextTickAsync(cancellationToken))
            {
                await Task.WhenAll(fleet.Gateways.Select(async (gateway, i) =>
                {
                    var status = await AskAsync(LiveBenchOptions.OperationsPort(firstPort, i));
                    lock (_gate)
                    {
                        Count(status, gateway.HasExited, ref lastAnswer[i]);
                    }
                }));
            }
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            // Stopped.
        }
    }

    private void Count(HttpStatusCode? status, bool exited, ref long lastAnswer)
    {
        _polls++;
        _exited |= exited;
        if (status is null)
        {
            _longestSilenceMs = Math.Max(_longestSilenceMs, Stopwatch.GetElapsedTime(lastAnswer).TotalMilliseconds);
            return;
        }

        lastAnswer = Stopwatch.GetTimestamp();
        _answered++;
        _ready += status == HttpStatusCode.OK ? 1 : 0;
    }

    private async Task<HttpStatusCode?> AskAsync(int port)
    {
        try
        {
            using var response = await _http.GetAsync(new Uri($"http://127.0.0.1:{port}/health/ready"));
            return response.StatusCode;
        }
        catch (Exception ex) when (ex is HttpRequestException or TaskCanceledException)
        {
            return null;   // refused, reset or not in time: not answering
        }
    }
}
