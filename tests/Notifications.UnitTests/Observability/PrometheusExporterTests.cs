using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Shared.Observability;

namespace Notifications.UnitTests.Observability;

/// <summary>The text the exporter serves, checked line by line against the exposition format 0.0.4.</summary>
public sealed class PrometheusExporterTests : IDisposable
{
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private readonly MetricsCollector _collector;
    private readonly Meter _meter;

    public PrometheusExporterTests()
    {
        var factory = _services.GetRequiredService<IMeterFactory>();
        _collector = new MetricsCollector(factory);
        _meter = factory.Create("Notifications.Test");
    }

    [Fact]
    public void Scrape_Counter_HasHelpTypeAndTotalSuffix()
    {
        var counter = _meter.CreateCounter<long>("notifications.delivered", "{notification}", "Notifications the SMTP server accepted");
        counter.Add(3);
        counter.Add(4);

        var lines = Lines(_collector.Scrape());

        Assert.Equal(
            ["# HELP notifications_delivered_total Notifications the SMTP server accepted",
             "# TYPE notifications_delivered_total counter",
             "notifications_delivered_total 7"],
            lines);
    }

    [Fact]
    public void Scrape_CounterNotYetIncremented_ShowsZero()
    {
        _meter.CreateCounter<long>("notifications.retried");

        Assert.Contains("notifications_retried_total 0", Lines(_collector.Scrape()));
    }

    [Fact]
    public void Scrape_Histogram_WritesCumulativeBucketsInfSumAndCount()
    {
        var histogram = _meter.CreateHistogram("notifications.smtp.send.duration", "s", "Send time",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.1, 1, 10] });
        histogram.Record(0.05);
        histogram.Record(0.1);   // on a bound: counts in that bound's bucket (le = less or equal)
        histogram.Record(5);
        histogram.Record(50);

        var lines = Lines(_collector.Scrape());

        Assert.Equal(
            ["# HELP notifications_smtp_send_duration_seconds Send time",
             "# TYPE notifications_smtp_send_duration_seconds histogram",
             "notifications_smtp_send_duration_seconds_bucket{le=\"0.1\"} 2",
             "notifications_smtp_send_duration_seconds_bucket{le=\"1\"} 2",
             "notifications_smtp_send_duration_seconds_bucket{le=\"10\"} 3",
             "notifications_smtp_send_duration_seconds_bucket{le=\"+Inf\"} 4",
             "notifications_smtp_send_duration_seconds_sum 55.15",
             "notifications_smtp_send_duration_seconds_count 4"],
            lines);
    }

    [Fact]
    public void Scrape_TaggedCounter_OneSeriesPerTagSetWithEscapedValues()
    {
        var counter = _meter.CreateCounter<long>("notifications.send.failed");
        counter.Add(1, new KeyValuePair<string, object?>("kind", "transient"));
        counter.Add(2, new KeyValuePair<string, object?>("kind", "transient"));
        counter.Add(1, new KeyValuePair<string, object?>("kind", "a\"b\\c\nd"));

        var lines = Lines(_collector.Scrape());

        Assert.Contains("notifications_send_failed_total{kind=\"transient\"} 3", lines);
        Assert.Contains("notifications_send_failed_total{kind=\"a\\\"b\\\\c\\nd\"} 1", lines);
        Assert.DoesNotContain("notifications_send_failed_total 0", lines);
    }

    [Fact]
    public void Scrape_TaggedHistogram_LeComesAfterTheSeriesLabels()
    {
        var histogram = _meter.CreateHistogram("latency", "s", advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [1] });
        histogram.Record(0.5, new KeyValuePair<string, object?>("mode", "x"));

        Assert.Contains("latency_seconds_bucket{mode=\"x\",le=\"1\"} 1", Lines(_collector.Scrape()));
    }

    [Fact]
    public void Scrape_ObservableGauge_ReportsTheValueOfEachCollection()
    {
        long backlog = 5;
        _meter.CreateObservableGauge("notifications.outbox.backlog", () => backlog, "{row}", "Rows waiting");
        Assert.Contains("notifications_outbox_backlog 5", Lines(_collector.Scrape()));

        backlog = 2;
        var lines = Lines(_collector.Scrape());

        Assert.Contains("# TYPE notifications_outbox_backlog gauge", lines);
        Assert.Contains("notifications_outbox_backlog 2", lines);
        Assert.DoesNotContain("notifications_outbox_backlog 5", lines);
    }

    [Fact]
    public void Scrape_RatioGaugeAndSpecialValues_UnitSuffixAndNaN()
    {
        _meter.CreateObservableGauge("notifications.delivery.slo.within_2m", () => double.NaN, "1");
        _meter.CreateObservableGauge("temperature", () => double.PositiveInfinity);

        var lines = Lines(_collector.Scrape());

        Assert.Contains("notifications_delivery_slo_within_2m_ratio NaN", lines);
        Assert.Contains("temperature +Inf", lines);
    }

    [Fact]
    public void Scrape_UpDownCounter_IsAGaugeOfTheRunningSum()
    {
        var inFlight = _meter.CreateUpDownCounter<long>("notifications.in_flight");
        inFlight.Add(3);
        inFlight.Add(-1);

        var lines = Lines(_collector.Scrape());

        Assert.Contains("# TYPE notifications_in_flight gauge", lines);
        Assert.Contains("notifications_in_flight 2", lines);
    }

    [Fact]
    public void Scrape_MeterOfAnotherFactory_IsNotExported()
    {
        using var other = new ServiceCollection().AddMetrics().BuildServiceProvider();
        other.GetRequiredService<IMeterFactory>().Create("Notifications.Other").CreateCounter<long>("other.counter").Add(1);

        Assert.DoesNotContain(Lines(_collector.Scrape()), l => l.Contains("other_counter", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Scrape_CountersAddedFromManyThreads_LosesNoIncrement()
    {
        var counter = _meter.CreateCounter<long>("busy");
        var histogram = _meter.CreateHistogram("busy.latency", "s", advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [1] });

        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(() =>
        {
            for (int i = 0; i < 10_000; i++)
            {
                counter.Add(1);
                histogram.Record(0.5);
                if (i % 1000 == 0)
                {
                    Assert.NotEmpty(_collector.Scrape());
                }
            }
        })));

        var lines = Lines(_collector.Scrape());
        Assert.Contains("busy_total 80000", lines);
        Assert.Contains("busy_latency_seconds_count 80000", lines);
        Assert.Contains("busy_latency_seconds_sum 40000", lines);
    }

    [Fact]
    public void Scrape_EveryLine_IsACommentOrASampleOfTheFormat()
    {
        _meter.CreateCounter<long>("a.b").Add(1, new KeyValuePair<string, object?>("k", "v"));
        _meter.CreateHistogram<double>("c.d", "ms").Record(12);
        _meter.CreateObservableGauge("e.f", () => 1.5);

        string text = _collector.Scrape();

        Assert.EndsWith("\n", text, StringComparison.Ordinal);
        Assert.All(Lines(text), line => Assert.Matches(
            @"^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*=""([^""\\]|\\.)*"",?)*\})? (NaN|[+-]Inf|-?[0-9.eE+-]+))$",
            line));
    }

    public void Dispose()
    {
        _collector.Dispose();
        _services.Dispose();
    }

    private static List<string> Lines(string text) => text.Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
}
