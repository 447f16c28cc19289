using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// A real Prometheus (Debian's <c>prometheus</c>, path from NOTIFICATIONS_TEST_PROMETHEUS) on a free
/// loopback port, scraping the given targets every second, with its storage in a temporary directory.
/// </summary>
internal sealed class PrometheusServer : IAsyncDisposable
{
    private readonly Process _process;
    private readonly string _directory;
    private readonly HttpClient _http;
    private readonly List<string> _output = [];

    private PrometheusServer(Process process, string directory, int port)
    {
        _process = process;
        _directory = directory;
        _http = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}/"), Timeout = TimeSpan.FromSeconds(10) };
    }

    public static async Task<PrometheusServer> StartAsync(params (string Job, Uri Target)[] targets)
    {
        string executable = Environment.GetEnvironmentVariable("NOTIFICATIONS_TEST_PROMETHEUS") is { Length: > 0 } configured
            ? configured
            : "/usr/bin/prometheus";
        if (!File.Exists(executable))
        {
            throw new InvalidOperationException(
                $"prometheus not found at '{executable}': run scripts/setup (it installs Debian's prometheus) or set NOTIFICATIONS_TEST_PROMETHEUS.");
        }

        string directory = Path.Combine(Path.GetTempPath(), "prometheus-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(directory);
        string config = Path.Combine(directory, "prometheus.yml");
        await File.WriteAllTextAsync(config, Config(targets));
        int port = FreePort();
        var info = new ProcessStartInfo(executable) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in (string[])[$"--config.file={config}", $"--storage.tsdb.path={Path.Combine(directory, "data")}",
            $"--web.listen-address=127.0.0.1:{port}", "--storage.tsdb.retention.time=1h"])
        {
            info.ArgumentList.Add(argument);
        }

        var server = new PrometheusServer(Process.Start(info)!, directory, port);
        server._process.OutputDataReceived += (_, e) => server.Keep(e.Data);
        server._process.ErrorDataReceived += (_, e) => server.Keep(e.Data);
        server._process.BeginOutputReadLine();
        server._process.BeginErrorReadLine();
        await server.WaitReadyAsync();
        return server;
    }

    /// <summary>An instant query's single value (the sum over series), or null while it has no result.</summary>
    public async Task<double?> QueryAsync(string promql)
    {
        using var response = await _http.GetAsync("api/v1/query?query=" + Uri.EscapeDataString($"sum({promql})"));
        response.EnsureSuccessStatusCode();
        using var document = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        var result = document.RootElement.GetProperty("data").GetProperty("result");
        return result.GetArrayLength() == 0
            ? null
            : double.Parse(result[0].GetProperty("value")[1].GetString()!, CultureInfo.InvariantCulture);
    }

    /// <summary>The scrape targets' health as Prometheus sees them ("up", "down", "unknown") and the last error.</summary>
    public async Task<string> TargetsAsync() => await _http.GetStringAsync("api/v1/targets");

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
        _http.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    private static string Config((string Job, Uri Target)[] targets) =>
        "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
        + string.Concat(targets.Select(t =>
            $"  - job_name: {t.Job}\n    static_configs:\n      - targets: ['{t.Target.Authority}']\n"));

    private async Task WaitReadyAsync()
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"prometheus exited with code {_process.ExitCode}: {Output()}");
            }

            try
            {
                using var response = await _http.GetAsync("-/ready");
                if (response.IsSuccessStatusCode)
                {
                    return;
                }
            }
            catch (HttpRequestException) when (clock.Elapsed < TimeSpan.FromSeconds(30))
            {
            }

            if (clock.Elapsed > TimeSpan.FromSeconds(30))
            {
                throw new TimeoutException($"prometheus was not ready after 30 s: {Output()}");
            }

            await Task.Delay(200);
        }
    }

    private string Output()
    {
        lock (_output)
        {
            return string.Join(Environment.NewLine, _output.TakeLast(20));
        }
    }

    private void Keep(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.Add(line);
            }
        }
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
