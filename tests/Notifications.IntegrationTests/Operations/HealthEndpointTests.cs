using System.Net;
using Notifications.IntegrationTests.Deployment;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Observability;

namespace Notifications.IntegrationTests.Operations;

/// <summary>/health/live, /health/ready and /health/started of a running worker, against the real broker and database.</summary>
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

    // Docker's healthcheck asks /health/started: a worker was "healthy" while it still retried an unresolvable broker.
    [Fact]
    public async Task Health_BrokerUnreachableAtStart_NotReadyNorStartedUntilConnected()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        int port = FreePort();   // nothing listens here until the proxy below starts: connections are refused
        var unreachable = new UriBuilder(broker.Options.Uri) { Port = port }.Uri;
        await using var producer = await WorkerHost.StartProducerAsync(broker,
            ("RabbitMq:Uri", unreachable.ToString()), ("RabbitMq:MaxConnectRetryDelay", "00:00:00.500"));
        var address = producer.Get<OperationsEndpoint>().Address!;

        var (readyBefore, readyBody) = await GetAsync(address, "health/ready");
        var (startedBefore, startedBody) = await GetAsync(address, "health/started");
        var (liveBefore, _) = await GetAsync(address, "health/live");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, readyBefore);
        Assert.Contains("broker: Unhealthy", readyBody, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.ServiceUnavailable, startedBefore);
        Assert.Contains("startup: Unhealthy", startedBody, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, liveBefore);
        // The stack's healthcheck reads the answer, not only that the port accepts: 503 is unhealthy.
        string check = StackHealthcheck.Of(await StackYaml.RenderAsync("docker-stack.yml"), "producer");
        Assert.Equal(1, await StackHealthcheck.RunAsync(check, address.Port));

        await using (RecordingTcpProxy.Start(broker.Options.Uri.Host, broker.Options.Uri.Port, listenPort: port))
        {
            var ready = await Eventually.WaitAsync(() => GetAsync(address, "health/ready"), r => r.Status == HttpStatusCode.OK,
                TimeSpan.FromSeconds(30), "ready once the broker is reachable");
            var started = await GetAsync(address, "health/started");

            Assert.Contains("broker: Healthy", ready.Body, StringComparison.Ordinal);
            Assert.Equal(HttpStatusCode.OK, started.Status);
            Assert.Contains("startup: Healthy", started.Body, StringComparison.Ordinal);
            Assert.Equal(0, await StackHealthcheck.RunAsync(check, address.Port));
        }

        // The broker gone again: not ready, but started stays healthy (a restart would not bring the broker back).
        var (readyAfter, _) = await Eventually.WaitAsync(() => GetAsync(address, "health/ready"), r => r.Status != HttpStatusCode.OK,
            TimeSpan.FromSeconds(30), "not ready once the broker is gone");
        var (startedAfter, _) = await GetAsync(address, "health/started");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, readyAfter);
        Assert.Equal(HttpStatusCode.OK, startedAfter);
    }

    [Fact]
    public async Task HealthcheckMode_WorkerProcess_ExitsZeroWhileItRunsAndOneAfter()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        int port = FreePort();
        await using (var worker = Shutdown.WorkerProcess.Start("Producer", broker, ("Metrics:Port", port.ToString(System.Globalization.CultureInfo.InvariantCulture))))
        {
            int healthy = await worker.WaitWhileRunningAsync(() => ProbeAsync(port), code => code == 0, TimeSpan.FromSeconds(60), "--healthcheck started exit 0");
            Assert.Equal(0, healthy);
        }

        Assert.Equal(1, await ProbeAsync(port));
    }

    // What docker-stack.yml's healthcheck runs (bash builtins asking /health/started), run by bash here as Docker runs it in
    // the worker's container.
    [Theory]
    [InlineData("docker-stack.yml")]
    [InlineData("docker-stack.postgres.yml")]
    public async Task StackHealthcheck_WorkerProcess_ExitsOneBeforeItListensZeroWhileItRunsAndOneAfter(string file)
    {
        string check = StackHealthcheck.Of(await StackYaml.RenderAsync(file), "producer");
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        int port = FreePort();
        Assert.Equal(1, await StackHealthcheck.RunAsync(check, port));

        await using (var worker = Shutdown.WorkerProcess.Start("Producer", broker, ("Metrics:Port", port.ToString(System.Globalization.CultureInfo.InvariantCulture))))
        {
            int healthy = await worker.WaitWhileRunningAsync(() => StackHealthcheck.RunAsync(check, port), code => code == 0, TimeSpan.FromSeconds(60), "the stack's healthcheck exit 0");
            Assert.Equal(0, healthy);
        }

        Assert.Equal(1, await StackHealthcheck.RunAsync(check, port));
    }

    private static async Task<(HttpStatusCode Status, string Body)> GetAsync(Uri address, string path)
    {
        using var response = await Http.GetAsync(new Uri(address, path));
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }

    // The worker binary in --healthcheck started mode (docs/operations.md: for images whose healthcheck cannot run bash).
    private static async Task<int> ProbeAsync(int port)
    {
        var info = new System.Diagnostics.ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add(RepositoryLayout.WorkerDll("Producer"));
        info.ArgumentList.Add("--healthcheck");
        info.ArgumentList.Add("started");
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
