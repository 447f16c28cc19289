using System.Net;
using System.Text.Json;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole.Overview;

/// <summary>
/// Reads each configured worker's operations endpoint (<c>Console:Workers</c>): <c>/health/ready</c> and <c>/breakers</c>, all
/// workers at once, each within <see cref="Timeout"/>: a worker that does not answer in time is "no answer", never a slow
/// overview. The endpoints are the ones Docker's healthcheck and Prometheus already read; nothing is kept between reads.
/// </summary>
internal sealed class WorkerProbe(IOptions<ConsoleOptions> options) : IDisposable
{
    /// <summary>How long one worker may take to answer both requests.</summary>
    public static readonly TimeSpan Timeout = TimeSpan.FromMilliseconds(300);

    private readonly HttpClient _http = new(new SocketsHttpHandler { ConnectTimeout = Timeout, AllowAutoRedirect = false })
    {
        Timeout = System.Threading.Timeout.InfiniteTimeSpan,
    };

    public async Task<IReadOnlyList<WorkerReading>> ReadAsync(CancellationToken cancellationToken) =>
        await Task.WhenAll(options.Value.Workers.Select(worker => ReadAsync(worker, cancellationToken)));

    public void Dispose() => _http.Dispose();

    private async Task<WorkerReading> ReadAsync(ConsoleWorkerOptions worker, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(Timeout);
        try
        {
            var health = GetTextAsync(new Uri(worker.Url!, "health/ready"), deadline.Token);
            var breakers = GetBreakersAsync(new Uri(worker.Url!, "breakers"), deadline.Token);
            string[] lines = (await health).Split('\n', StringSplitOptions.RemoveEmptyEntries);
            return new WorkerReading(worker.Name, lines.FirstOrDefault() ?? "", lines.Skip(1).ToList(), await breakers, null);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return WorkerReading.Silent(worker.Name, $"no answer within {Timeout.TotalMilliseconds:0} ms");
        }
        catch (HttpRequestException ex)
        {
            return WorkerReading.Silent(worker.Name, $"no answer: {ex.Message}");
        }
        catch (Exception ex) when (ex is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            return WorkerReading.Silent(worker.Name, $"not an operations endpoint's answer: {ex.Message}");
        }
    }

    // 200 (healthy) and 503 (unhealthy) are both answers: the body says which, and each check.
    private async Task<string> GetTextAsync(Uri url, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(url, cancellationToken);
        if (response.StatusCode is not (HttpStatusCode.OK or HttpStatusCode.ServiceUnavailable))
        {
            throw new HttpRequestException($"{url.AbsolutePath} answered {(int)response.StatusCode}");
        }

        return await response.Content.ReadAsStringAsync(cancellationToken);
    }

    // An endpoint from before /breakers answers 404: no breakers known, the health still read.
    private async Task<IReadOnlyList<BreakerReading>?> GetBreakersAsync(Uri url, CancellationToken cancellationToken)
    {
        using var response = await _http.GetAsync(url, cancellationToken);
        if (response.StatusCode == HttpStatusCode.NotFound)
        {
            return null;
        }

        response.EnsureSuccessStatusCode();
        return BreakerJson.Read(await response.Content.ReadAsByteArrayAsync(cancellationToken));
    }
}
