using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;
using Notifications.Shared.Observability;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// The workers' /metrics scraped by a real Prometheus, read back through its HTTP API, and compared
/// with what the SMTP server actually received.
/// </summary>
[Collection("services")]
public sealed class PrometheusScrapeTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Prometheus_ScrapingBothWorkers_DeliveredCountMatchesSmtpServer()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        var ids = await db.InsertAsync(500);

        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink);
        await using var producer = await WorkerHost.StartProducerAsync(broker, ("Metrics:BacklogInterval", "00:00:00.500"));
        await using var prometheus = await PrometheusServer.StartAsync(
            ("consumer", Endpoint(consumer)), ("producer", Endpoint(producer)));

        await sink.WaitForMessagesAsync(ids.Count, Patience);
        PipelineTests.AssertExactlyOnce(ids, sink.CountByNotificationId());
        int received = sink.MessageCount();

        double delivered = await WaitForAsync(prometheus, "notifications_delivered_total", v => v == received);
        Assert.Equal(received, delivered);
        Assert.Equal(ids.Count, await WaitForAsync(prometheus, "notifications_confirmed_total", v => v == ids.Count));
        Assert.Equal(ids.Count, await WaitForAsync(prometheus, "notifications_outbox_committed_total", v => v == ids.Count));
        Assert.Equal(received, await WaitForAsync(prometheus, "sum(notifications_delivery_latency_seconds_count)", v => v == received));
        Assert.Equal(received, await WaitForAsync(prometheus, "sum(notifications_ack_delay_seconds_count)", v => v == received));
        Assert.Equal(received, await WaitForAsync(prometheus, "sum(notifications_delivery_log_write_duration_seconds_count)", v => v == received));
        // Per message (envelope) and per batch: at least one each, at most one per notification.
        Assert.InRange(await WaitForAsync(prometheus, "sum(notifications_queue_wait_seconds_count)", v => v >= 1), 1, received);
        Assert.InRange(await WaitForAsync(prometheus, "sum(notifications_producer_publish_duration_seconds_count)", v => v >= 1), 1, ids.Count);
        Assert.Equal(received, await WaitForAsync(prometheus, "notifications_smtp_send_duration_seconds_count", v => v == received));
        Assert.Equal(0, await WaitForAsync(prometheus, "notifications_outbox_backlog", v => v == 0));
        // Freshly inserted and delivered on loopback: all of them within two minutes (the per-consumer SLO, from the buckets).
        Assert.Equal(1.0, await WaitForAsync(prometheus,
            "sum by (instance) (notifications_delivery_latency_seconds_bucket{le=~\"120|120.0\"}) / sum by (instance) (notifications_delivery_latency_seconds_count)",
            v => v == 1.0));
        Assert.Equal(0, await WaitForAsync(prometheus, "notifications_dead_lettered_total", v => v == 0));
    }

    private static Uri Endpoint(WorkerHost worker) =>
        worker.Get<OperationsEndpoint>().Address ?? throw new InvalidOperationException("the worker's operations endpoint is not running");

    private static async Task<double> WaitForAsync(PrometheusServer prometheus, string query, Func<double, bool> done)
    {
        try
        {
            return (await Eventually.WaitAsync(() => prometheus.QueryAsync(query), v => v is { } value && done(value), Patience, query))!.Value;
        }
        catch (TimeoutException ex)
        {
            throw new TimeoutException($"{ex.Message}{Environment.NewLine}targets: {await prometheus.TargetsAsync()}", ex);
        }
    }
}
