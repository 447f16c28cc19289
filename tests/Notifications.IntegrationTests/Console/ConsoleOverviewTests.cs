using System.Net;
using System.Net.Sockets;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Observability;
using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The overview's workers and rate limits: a worker's real operations endpoint (the <see cref="OperationsEndpoint"/> every worker
/// runs) read for its readiness and breakers, a worker that accepts connections and never answers shown as "no answer", a
/// breaker closing seen on the next refresh, a slowed-down limit of <c>rate_limit</c> with the rate its last lease configured.
/// </summary>
[Collection("services")]
public sealed class ConsoleOverviewTests
{
    private const string SlowLimit = "domain:slow.console.test";

    [Fact]
    public async Task Figures_WorkerEndpointAndSilentWorkerAndSlowedLimitWithItsConfiguredRate_EachShownAndABreakerChangeSeenLive()
    {
        await using var worker = await WorkerEndpoint.StartAsync();
        worker.Breakers.Report("relay", "closed");
        worker.Breakers.Report("webhook:orders", "open");
        using var silent = new TcpListener(IPAddress.Loopback, 0);
        silent.Start();   // the kernel accepts connections; nothing ever reads a request or answers
        int silentPort = ((IPEndPoint)silent.LocalEndpoint).Port;
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync(
                $"""
                DELETE FROM {TestDatabase.Schema}.rate_limit WHERE name = @SlowLimit;
                INSERT INTO {TestDatabase.Schema}.rate_limit (name, tat_us, slow_factor, slow_changed_us, slow_until_us)
                VALUES (@SlowLimit, 0, 4, 0, (extract(epoch FROM clock_timestamp() + interval '1 hour') * 1000000)::bigint)
                """,
                new { SlowLimit });
        }

        // A consumer's lease at 50/s (one send every 20 ms), as the consumer's limiter runs it: it writes the configured rate.
        await using (var dataSource = Npgsql.NpgsqlDataSource.Create(TestServices.PostgresConnectionString))
        {
            var store = new Notifications.Consumer.RateLimiting.PostgresRateLimitStore(
                dataSource, new Shared.Hosting.DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema });
            await store.LeaseAsync(SlowLimit, 1, TimeSpan.FromMilliseconds(20), TimeSpan.Zero, CancellationToken.None);
        }

        await using var console = await ConsoleHost.StartAsync(new Dictionary<string, string?>
        {
            ["Console:Workers:0:Name"] = "consumer-1",
            ["Console:Workers:0:Url"] = worker.Address.ToString(),
            ["Console:Workers:1:Name"] = "consumer-2",
            ["Console:Workers:1:Url"] = $"http://127.0.0.1:{silentPort}/",
        });
        using var viewer = new ConsoleClient(console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string figures = await viewer.Http.GetStringAsync("/?handler=Figures");

        Assert.Contains("data-worker=\"consumer-1\"", figures, StringComparison.Ordinal);
        Assert.Contains("data-breaker=\"webhook:orders\" data-state=\"open\"", figures, StringComparison.Ordinal);
        Assert.Contains("data-breaker=\"relay\" data-state=\"closed\"", figures, StringComparison.Ordinal);
        Assert.Matches("data-worker=\"consumer-1\">\\s*<td>consumer-1</td>\\s*<td class=\"health \" title=\"[^\"]*database: Healthy", figures);
        Assert.Matches("data-worker=\"consumer-2\">\\s*<td>consumer-2</td>\\s*<td class=\"error health\" colspan=\"2\">no answer within 300 ms</td>", figures);
        Assert.Contains($"data-limit=\"{SlowLimit}\"", figures, StringComparison.Ordinal);
        Assert.Matches($"data-limit=\"{SlowLimit}\" class=\"warn\">\\s*<td>{SlowLimit}</td>\\s*<td class=\"configured\">50/s</td>\\s*<td>slowed down: interval x4 until", figures);

        worker.Breakers.Report("webhook:orders", "closed");
        await Eventually.WaitAsync(() => viewer.Http.GetStringAsync("/?handler=Figures"),
            html => html.Contains("data-breaker=\"webhook:orders\" data-state=\"closed\"", StringComparison.Ordinal), TimeSpan.FromSeconds(10), "the breaker closed");
        await using var cleanup = await TestDatabase.OpenAsync();
        await cleanup.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.rate_limit WHERE name = @SlowLimit", new { SlowLimit });
    }

    /// <summary>A worker's operations endpoint as the workers run it, with a readiness check and a breaker board of the test's.</summary>
    private sealed class WorkerEndpoint : IAsyncDisposable
    {
        private readonly ServiceProvider _services;
        private readonly MeterProvider _meters;
        private readonly OperationsEndpoint _endpoint;

        private WorkerEndpoint(ServiceProvider services, MeterProvider meters, OperationsEndpoint endpoint, BreakerBoard breakers)
        {
            Breakers = breakers;
            _services = services;
            _meters = meters;
            _endpoint = endpoint;
        }

        public BreakerBoard Breakers { get; }

        public Uri Address => _endpoint.Address!;

        public static async Task<WorkerEndpoint> StartAsync()
        {
            var services = new ServiceCollection();
            services.AddLogging().AddHealthChecks().AddCheck("database", () => HealthCheckResult.Healthy("answered"), tags: ["ready"]);
            var provider = services.BuildServiceProvider();
            var meters = Sdk.CreateMeterProviderBuilder().AddPrometheusExporter().Build();
            var board = new BreakerBoard(TimeProvider.System);
            var endpoint = new OperationsEndpoint(meters, provider.GetRequiredService<HealthCheckService>(), board, new PresenceBoard(),
                Options.Create(new OperationsOptions { Port = 0 }), NullLoggerFactory.Instance);
            var worker = new WorkerEndpoint(provider, meters, endpoint, board);
            await endpoint.StartAsync(CancellationToken.None);
            return worker;
        }

        public async ValueTask DisposeAsync()
        {
            await _endpoint.StopAsync(CancellationToken.None);
            await _endpoint.DisposeAsync();
            await _services.DisposeAsync();
            _meters.Dispose();
        }
    }
}
