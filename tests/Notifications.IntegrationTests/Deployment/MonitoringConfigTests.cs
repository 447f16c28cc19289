using System.Diagnostics;
using System.Text.Json;
using System.Text.RegularExpressions;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Notifications.Consumer.Channels;
using Notifications.Consumer.Telemetry;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Producer;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;
using Notifications.Shared.Observability;
using Notifications.Shared.Observability.Hops;

namespace Notifications.IntegrationTests.Deployment;

/// <summary>deploy/prometheus and deploy/grafana: valid for promtool, and every metric they name is one the workers export.</summary>
public sealed partial class MonitoringConfigTests
{
    [Theory]
    [InlineData("prometheus.yml")]
    [InlineData("prometheus.local.yml")]
    public async Task PrometheusConfig_Promtool_AcceptsItAndItsRules(string file)
    {
        var (exit, output) = await PromtoolAsync("check", "config", RepositoryLayout.File("deploy", "prometheus", file));

        Assert.True(exit == 0, output);
    }

    [Fact]
    public async Task DashboardQueries_Promtool_ParsesEveryExpression()
    {
        var expressions = DashboardExpressions();
        string rules = Path.Combine(Path.GetTempPath(), $"dashboard-rules-{Guid.NewGuid():N}.yml");
        await File.WriteAllTextAsync(rules, "groups:\n  - name: dashboard\n    rules:\n" + string.Concat(
            expressions.Select((e, i) => $"      - record: dashboard:panel{i}\n        expr: {JsonSerializer.Serialize(e)}\n")));
        try
        {
            var (exit, output) = await PromtoolAsync("check", "rules", rules);

            Assert.True(exit == 0, output);
            Assert.True(expressions.Count >= 10, $"only {expressions.Count} queries in the dashboard");
        }
        finally
        {
            File.Delete(rules);
        }
    }

    [Fact]
    public async Task DashboardAndAlerts_EveryNotificationsMetric_IsExportedByAWorker()
    {
        var referenced = DashboardExpressions().Append(Alerts())
            .SelectMany(text => MetricName().Matches(text).Select(m => m.Value))
            .ToHashSet(StringComparer.Ordinal);
        string scrape = await ScrapeProducerAsync() + await ScrapeConsumerAsync();
        // Sample names, and the TYPE lines' names.
        var exported = scrape.Split('\n')
            .Where(l => l.Length > 0 && (!l.StartsWith('#') || l.StartsWith("# TYPE ", StringComparison.Ordinal)))
            .Select(l => l.StartsWith('#') ? l.Split(' ')[2] : l[..l.IndexOfAny(['{', ' '])])
            .ToHashSet(StringComparer.Ordinal);

        Assert.NotEmpty(referenced);
        Assert.Empty(referenced.Except(exported));
    }

    [Fact]
    public async Task DashboardAndAlerts_EveryLatencyBucketBound_IsExported()
    {
        var referenced = DashboardExpressions().Append(Alerts())
            .SelectMany(text => LatencyBucket().Matches(text).Select(m => m.Groups["le"].Value))
            .ToHashSet(StringComparer.Ordinal);
        var exported = LatencyBucket().Matches(await ScrapeConsumerAsync()).Select(m => m.Groups["le"].Value)
            .ToHashSet(StringComparer.Ordinal);

        // A reference may be a regex alternation (le=~"120|120.0": text format and OpenMetrics spell the bound differently).
        Assert.Contains(referenced, le => le.Split('|').Contains("120"));
        Assert.DoesNotContain(referenced, le => !le.Split('|').Any(exported.Contains));
    }

    private static string Alerts() => File.ReadAllText(RepositoryLayout.File("deploy", "prometheus", "alerts.yml"));

    private static Task<string> ScrapeProducerAsync() => ScrapeAsync(ProducerMetrics.MeterName, services =>
    {
        using var metrics = new ProducerMetrics(services.GetRequiredService<IMeterFactory>());
        var lane = ProducerLane.Urgent(new ProducerOptions(), new UrgentWake());
        metrics.ClaimEnded(lane, DateTimeOffset.UtcNow, [new OutboxRow { CreatedAt = DateTimeOffset.UtcNow }]);
        metrics.Claimed(1);
        metrics.Published(1);
        metrics.Confirmed(1, lane, Stopwatch.GetTimestamp());
        metrics.Committed(1);
        metrics.Rejected(1);
        metrics.BatchFailed();
        metrics.SetBacklog(0);
    });

    private static Task<string> ScrapeConsumerAsync() => ScrapeAsync(ConsumerMetrics.MeterName, services =>
    {
        using var metrics = new ConsumerMetrics(services.GetRequiredService<IMeterFactory>(), TimeProvider.System);
        metrics.Received(PublishedAtHeader.Stamp(null, TimeProvider.System), attempt: 1, HopTags.Standard);
        metrics.Delivered(TimeSpan.FromSeconds(1), new DeliveryTimings(HopTags.Urgent, Stopwatch.GetTimestamp(), Stopwatch.GetTimestamp()));
        metrics.Duplicate();
        metrics.Retried();
        metrics.DeadLettered();
        metrics.Unknown();
        metrics.SendSucceeded(TimeSpan.FromMilliseconds(3));
        metrics.SendFailed(SendFailureKind.Transient, TimeSpan.FromMilliseconds(3));
        metrics.HandlingStarted();
    });

    // The workers' own wiring and endpoint. Every instrument records once first: OpenTelemetry exports an
    // instrument only once it has a measurement.
    private static async Task<string> ScrapeAsync(string meterName, Action<IServiceProvider> record)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration["Metrics:Port"] = "0";
        builder.AddNotificationsOperations(defaultPort: 0, "monitoring-config-test", meterName);
        using var host = builder.Build();
        await host.StartAsync();
        try
        {
            record(host.Services);
            using var http = new HttpClient();
            var endpoint = host.Services.GetRequiredService<OperationsEndpoint>().Address!;
            return await http.GetStringAsync(new Uri(endpoint, "metrics"));
        }
        finally
        {
            await host.StopAsync();
        }
    }

    private static List<string> DashboardExpressions()
    {
        using var dashboard = JsonDocument.Parse(File.ReadAllText(RepositoryLayout.File("deploy", "grafana", "notifications-dashboard.json")));
        return dashboard.RootElement.GetProperty("panels").EnumerateArray()
            .SelectMany(p => p.GetProperty("targets").EnumerateArray())
            .Select(t => t.GetProperty("expr").GetString()!)
            .ToList();
    }

    private static async Task<(int ExitCode, string Output)> PromtoolAsync(params string[] args)
    {
        string prometheus = Environment.GetEnvironmentVariable("NOTIFICATIONS_TEST_PROMETHEUS") is { Length: > 0 } p ? p : "/usr/bin/prometheus";
        string promtool = Path.Combine(Path.GetDirectoryName(prometheus)!, "promtool");
        var info = new ProcessStartInfo(promtool) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        args.ToList().ForEach(info.ArgumentList.Add);
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"{promtool} did not start: run scripts/setup (Debian's prometheus package has it)");
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        return (process.ExitCode, await output + await error);
    }

    [GeneratedRegex(@"\bnotifications_[a-z0-9_]+\b")]
    private static partial Regex MetricName();

    [GeneratedRegex(@"notifications_delivery_latency_seconds_bucket\{[^}]*\ble=~?""(?<le>[^""]+)""")]
    private static partial Regex LatencyBucket();
}
