using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;
using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace Notifications.UnitTests.Observability;

/// <summary>The endpoint's routing on loopback: each health path runs only the checks with its tag; the 404 for anything else.</summary>
public sealed class OperationsEndpointTests : IAsyncLifetime
{
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(10) };
    private readonly ServiceProvider _services;
    private readonly MeterProvider _meters = Sdk.CreateMeterProviderBuilder().AddPrometheusExporter().Build();
    private readonly BreakerBoard _breakers = new(TimeProvider.System);
    private readonly PresenceBoard _presence = new();
    private readonly OperationsEndpoint _endpoint;

    public OperationsEndpointTests()
    {
        var services = new ServiceCollection();
        services.AddLogging().AddHealthChecks()
            .AddCheck("loop", () => HealthCheckResult.Healthy("turning"), tags: ["live", "started"])
            .AddCheck("broker", () => HealthCheckResult.Unhealthy("refused"), tags: ["ready"]);
        _services = services.BuildServiceProvider();
        _endpoint = new OperationsEndpoint(_meters, _services.GetRequiredService<HealthCheckService>(), _breakers, _presence,
            Options.Create(new OperationsOptions { Port = 0 }), NullLoggerFactory.Instance);
    }

    public Task InitializeAsync() => _endpoint.StartAsync(CancellationToken.None);

    public async Task DisposeAsync()
    {
        await _endpoint.StopAsync(CancellationToken.None);
        await _endpoint.DisposeAsync();
        await _services.DisposeAsync();
        _meters.Dispose();
    }

    [Fact]
    public async Task Presence_NotAGatewayThenServed_404ThenTotalsAndTheListById()
    {
        using var before = await Http.GetAsync(new Uri(_endpoint.Address!, "/presence"));
        _presence.Serve(() => [new PresenceReading("bo", 1), new PresenceReading("ana", 2)]);

        using var answer = await Http.GetAsync(new Uri(_endpoint.Address!, "/presence"));
        var (subscribers, connections, listed) = PresenceJson.Read(await answer.Content.ReadAsByteArrayAsync());

        Assert.Equal(HttpStatusCode.NotFound, before.StatusCode);
        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Equal((2, 3L), (subscribers, connections));
        Assert.Equal([new PresenceReading("ana", 2), new PresenceReading("bo", 1)], listed);
    }

    [Fact]
    public async Task Breakers_TwoReported_JsonWithEachStateAndSince()
    {
        _breakers.Report("relay", "closed");
        _breakers.Report("webhook:orders", "closed");
        _breakers.Report("webhook:orders", "open");

        using var answer = await Http.GetAsync(new Uri(_endpoint.Address!, "/breakers"));
        var read = BreakerJson.Read(await answer.Content.ReadAsByteArrayAsync());

        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
        Assert.Equal("application/json", answer.Content.Headers.ContentType?.MediaType);
        Assert.Equal(["relay:closed", "webhook:orders:open"], read.Select(b => $"{b.Name}:{b.State}"));
        Assert.All(read, b => Assert.InRange(b.Since, DateTimeOffset.UtcNow.AddMinutes(-1), DateTimeOffset.UtcNow));
    }

    [Fact]
    public async Task Start_PortAlreadyBound_NoAddressNoThrow_TheFirstStillAnswers()
    {
        // The second endpoint asks for the port the first one holds: the worker keeps running without metrics and health.
        var port = _endpoint.Address!.Port;
        await using var second = new OperationsEndpoint(_meters, _services.GetRequiredService<HealthCheckService>(), _breakers, _presence,
            Options.Create(new OperationsOptions { Port = port }), NullLoggerFactory.Instance);

        await second.StartAsync(CancellationToken.None);

        Assert.Null(second.Address);
        using var answer = await Http.GetAsync(new Uri(_endpoint.Address, "/health/live"));
        Assert.Equal(HttpStatusCode.OK, answer.StatusCode);
    }

    [Fact]
    public async Task Live_UnhealthyCheckTaggedOnlyReady_200WithoutIt()
    {
        var (status, body) = await SendAsync(HttpMethod.Get, "health/live");

        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Equal("Healthy\nloop: Healthy — turning\n", body);
    }

    [Fact]
    public async Task Ready_UnhealthyCheckTaggedReady_503WithTheReason()
    {
        var (status, body) = await SendAsync(HttpMethod.Get, "health/ready");

        Assert.Equal(HttpStatusCode.ServiceUnavailable, status);
        Assert.Equal("Unhealthy\nbroker: Unhealthy — refused\n", body);
    }

    [Theory]
    [InlineData("")]
    [InlineData("health")]
    [InlineData("health/live/x")]
    [InlineData("favicon.ico")]
    [InlineData("unsubscribe?token=x")]
    public async Task UnknownPath_Any_404WithTheKnownPaths(string path)
    {
        var (status, body) = await SendAsync(HttpMethod.Get, path);

        Assert.Equal(HttpStatusCode.NotFound, status);
        Assert.Equal("not found: try /metrics, /health/live, /health/ready, /health/started or /breakers\n", body);
    }

    private async Task<(HttpStatusCode Status, string Body)> SendAsync(HttpMethod method, string path)
    {
        using var request = new HttpRequestMessage(method, new Uri(_endpoint.Address!, path));
        using var response = await Http.SendAsync(request);
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }
}
