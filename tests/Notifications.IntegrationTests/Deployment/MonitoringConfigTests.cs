using System.Diagnostics;
using System.Text.Json;
using System.Text.RegularExpressions;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Consumer;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Producer;
using Notifications.Shared.Observability;

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
    public void DashboardAndAlerts_EveryNotificationsMetric_IsExportedByAWorker()
    {
        string alerts = File.ReadAllText(RepositoryLayout.File("deploy", "prometheus", "alerts.yml"));
        var referenced = DashboardExpressions().Append(alerts)
            .SelectMany(text => MetricName().Matches(text).Select(m => m.Value))
            .ToHashSet(StringComparer.Ordinal);
        var exported = ExportedNames();

        Assert.NotEmpty(referenced);
        Assert.Empty(referenced.Except(exported));
    }

    private static HashSet<string> ExportedNames()
    {
        using var services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var meters = services.GetRequiredService<System.Diagnostics.Metrics.IMeterFactory>();
        using var collector = new MetricsCollector(meters);
        _ = new ProducerMetrics(meters);
        _ = new ConsumerMetrics(meters, Options.Create(new OperationsOptions()), TimeProvider.System);
        // Sample names, and the TYPE lines' names (a gauge not sampled yet, e.g. the backlog, has no sample).
        return collector.Scrape().Split('\n')
            .Where(l => l.Length > 0 && (!l.StartsWith('#') || l.StartsWith("# TYPE ", StringComparison.Ordinal)))
            .Select(l => l.StartsWith('#') ? l.Split(' ')[2] : l[..l.IndexOfAny(['{', ' '])])
            .ToHashSet(StringComparer.Ordinal);
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
}
