using System.Net;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Observability;

namespace Notifications.IntegrationTests.Operations;

/// <summary>/health/live and /health/ready of a running worker, against the real broker and database.</summary>
[Collection("services")]
public sealed class HealthEndpointTests
{
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(10) };

    [Fact]
    public async Task Health_ConnectedProducer_LiveAndReady()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        var address = producer.Get<OperationsEndpoint>().Address!;

        var (status, body) = await Eventually.WaitAsync(() => GetAsync(address, "health/ready"), r => r.Status == HttpStatusCode.OK,
            TimeSpan.FromSeconds(30), "ready");
        var (liveStatus, liveBody) = await GetAsync(address, "health/live");

        Assert.Contains("broker: Healthy", body, StringComparison.Ordinal);
        Assert.Contains("database: Healthy", body, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, liveStatus);
        Assert.Contains("loop: Healthy", liveBody, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, status);
    }

    [Fact]
    public async Task Health_DatabaseUnreachable_ReadyIs503WithTheReasonWhileLive()
    {
        await using var broker = await TestBroker.CreateAsync();
        await using var producer = await WorkerHost.StartProducerAsync(broker,
            ("Database:ConnectionString", "Host=127.0.0.1;Port=1;Database=none;Username=none;Password=none;Timeout=2"));
        var address = producer.Get<OperationsEndpoint>().Address!;

        var (status, body) = await GetAsync(address, "health/ready");
        var (liveStatus, _) = await GetAsync(address, "health/live");

        Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
        Assert.Contains("database: Unhealthy", body, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, liveStatus);
    }

    [Fact]
    public async Task HealthcheckMode_WorkerProcess_ExitsZeroWhileItRunsAndOneAfter()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        int port = FreePort();
        await using (var worker = Shutdown.WorkerProcess.Start("Producer", broker, ("Metrics:Port", port.ToString(System.Globalization.CultureInfo.InvariantCulture))))
        {
            int healthy = await worker.WaitWhileRunningAsync(() => ProbeAsync(port), code => code == 0, TimeSpan.FromSeconds(60), "--healthcheck exit 0");
            Assert.Equal(0, healthy);
        }

        Assert.Equal(1, await ProbeAsync(port));
    }

    private static async Task<(HttpStatusCode Status, string Body)> GetAsync(Uri address, string path)
    {
        using var response = await Http.GetAsync(new Uri(address, path));
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }

    // What docker-stack.yml's healthcheck runs: the worker binary in --healthcheck mode.
    private static async Task<int> ProbeAsync(int port)
    {
        var info = new System.Diagnostics.ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(RepositoryLayout.WorkerDll("Producer"));
        info.ArgumentList.Add("--healthcheck");
        info.Environment["Metrics__Port"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture);
        using var process = System.Diagnostics.Process.Start(info)!;
        await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        return process.ExitCode;
    }

    private static int FreePort()
    {
        using var listener = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
