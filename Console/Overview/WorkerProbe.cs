using System.Net;
using System.Text.Json;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole.Overview;

/// <summary>
/// Reads each configured worker's operations endpoint (<c>Console:Workers</c>): <c>/health/ready</c> and <c>/breakers</c> for
/// the overview, <c>/presence</c> for the live connections page; all workers at once, each within <see cref="Timeout"/>: a
/// worker that does not answer in time is "no answer", never a slow page. The endpoints are the ones Docker's healthcheck and
/// Prometheus already read; nothing is kept between reads.
/// </summary>
internal sealed class WorkerProbe(IOptions<ConsoleOptions> options) : IDisposable
{
    /// <summary>How long one worker may take to answer.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(300);

    private readonly HttpClient _http = new(new SocketsHttpHandler { ConnectTimeout = Timeout, AllowAutoRedirect = false })
    {
        Timeout = System.Threading.Timeout.InfiniteTimeSpan,
    };

    /// <summary>Each worker's readiness and breakers.</summary>
    public async Task<IReadOnlyList<WorkerReading>> ReadAsync(CancellationToken cancellationToken) =>
        await Task.WhenAll(options.Value.Workers.Select(worker => ProbeAsync(
            worker, token => ReadWorkerAsync(worker, token), why => WorkerReading.Silent(worker.Name, why), cancellationToken)));

    /// <summary>Each gateway's connected subscribers; a worker whose endpoint serves no presence (not a gateway) is left out.</summary>
    public async Task<IReadOnlyList<GatewayPresence>> ReadPresenceAsync(CancellationToken cancellationToken)
    {
        var readings = await Task.WhenAll(options.Value.Workers.Select(worker => ProbeAsync<GatewayPresence?>(
            worker, token => ReadPresenceAsync(worker, token), why => GatewayPresence.Silent(worker.Name, why), cancellationToken)));
        return readings.OfType<GatewayPresence>().ToList();
    }

    public void Dispose() => _http.Dispose();

    private async Task<WorkerReading> ReadWorkerAsync(ConsoleWorkerOptions worker, CancellationToken cancellationToken)
    {
        var health = GetHealthAsync(new Uri(worker.Url!, "health/ready"), cancellationToken);
        var breakers = GetJsonAsync(new Uri(worker.Url!, "breakers"), cancellationToken);
        string[] lines = (await health).Split('\n', StringSplitOptions.RemoveEmptyEntries);
        // An endpoint from before /breakers answers 404: no breakers known, the health still read.
        return new WorkerReading(worker.Name, lines.FirstOrDefault() ?? "", lines.Skip(1).ToList(), await breakers is { } json ? BreakerJson.Read(json) : null, null);
    }

    private async Task<GatewayPresence?> ReadPresenceAsync(ConsoleWorkerOptions worker, CancellationToken cancellationToken)
    {
        if (await GetJsonAsync(new Uri(worker.Url!, "presence"), cancellationToken) is not { } json)
        {
            return null;
        }

        var (subscribers, connections, listed) = PresenceJson.Read(json);
        return new GatewayPresence(worker.Name, subscribers, connections, listed, null);
    }

    private static async Task<T> ProbeAsync<T>(
        ConsoleWorkerOptions worker, Func<CancellationToken, Task<T>> read, Func<string, T> silent, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(Timeout);
        try
        {
            return await read(deadline.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return silent($"no answer within {Timeout.TotalMilliseconds:0} ms");
        }
        catch (HttpRequestException ex)
        {
            return silent($"no answer: {ex.Message}");
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            return silent($"not an operations endpoint's answer from {worker.Url}: {ex.Message}");
        }
    }

    // 200 (healthy) and 503 (unhealthy) are both answers: the body says which, and each check.
    private async Task<string> GetHealthAsync(Uri url, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(url, cancellationToken);
        if (response.StatusCode is not (HttpStatusCode.OK or HttpStatusCode.ServiceUnavailable))
        {
            throw new HttpRequestException($"{url.AbsolutePath} answered {(int)response.StatusCode}");
        }

        return await response.Content.ReadAsStringAsync(cancellationToken);
    }

    // The body of a JSON path; null when the endpoint does not serve it (404).
    private async Task<byte[]?> GetJsonAsync(Uri url, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(url, cancellationToken);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        return await response.Content.ReadAsByteArrayAsync(cancellationToken);
    }
}
