using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Notifications.Shared.Hosting;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;

namespace Notifications.UnitTests.Observability;

/// <summary>
/// The workers' OpenTelemetry wiring: traces only with an OTLP endpoint (no provider otherwise, so no span is
/// ever created), the standard sampler variables honoured, parent-based 1 % ratio by default (the project's, not the SDK's).
/// </summary>
[Collection("tracing")]
public sealed class TelemetryWiringTests
{
    private static readonly ActivitySource Producer = new("Notifications.Producer");

    [Fact]
    public async Task AddNotificationsTelemetry_NoOtlpEndpoint_MetricsButNoTracerProviderAndNoSpans()
    {
        using var host = await StartAsync();

        Assert.NotNull(host.Services.GetService<MeterProvider>());
        Assert.Null(host.Services.GetService<TracerProvider>());
        Assert.Null(Producer.StartActivity("root"));
    }

    [Fact]
    public async Task AddNotificationsTelemetry_OtlpEndpointAndNoSampler_ParentBasedOnePercent()
    {
        using var host = await StartAsync(("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"));
        var unsampled = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.None, isRemote: true);
        var sampled = new ActivityContext(ActivityTraceId.CreateRandom(), ActivitySpanId.CreateRandom(), ActivityTraceFlags.Recorded, isRemote: true);

        // Roots: about 1 in 100 (binomial, 2,000 tries: 20 expected; 4..60 is far outside chance).
        int recorded = 0;
        for (int i = 0; i < 2000; i++)
        {
            using var root = Producer.StartActivity("root");
            recorded += root is { Recorded: true } ? 1 : 0;
        }

        Assert.InRange(recorded, 4, 60);

        // A sampled parent (a business request's stored traceparent) is always followed, an unsampled one never.
        using (var child = Producer.StartActivity("child", ActivityKind.Internal, sampled))
        {
            Assert.True(child is { Recorded: true });
            Assert.Equal(sampled.TraceId, child.TraceId);
        }

        using var notSampled = Producer.StartActivity("child", ActivityKind.Internal, unsampled);
        Assert.False(notSampled is { Recorded: true });
    }

    [Fact]
    public async Task AddNotificationsTelemetry_OtelTracesSamplerParentBasedAlwaysOn_EveryRootRecorded()
    {
        using var host = await StartAsync(("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"), ("OTEL_TRACES_SAMPLER", "parentbased_always_on"));

        for (int i = 0; i < 100; i++)
        {
            using var root = Producer.StartActivity("root");
            Assert.True(root is { Recorded: true });
        }
    }

    [Fact]
    public async Task AddNotificationsTelemetry_OtelTracesSamplerAlwaysOff_RecordsNothing()
    {
        using var host = await StartAsync(("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1"), ("OTEL_TRACES_SAMPLER", "always_off"));

        Assert.NotNull(host.Services.GetService<TracerProvider>());
        using var root = Producer.StartActivity("root");
        Assert.False(root is { Recorded: true });
    }

    private static async Task<IHost> StartAsync(params (string Key, string Value)[] settings)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        foreach (var (key, value) in settings)
        {
            builder.Configuration[key] = value;
        }

        builder.AddNotificationsTelemetry("telemetry-wiring-test", "Notifications.Test");
        var host = builder.Build();
        await host.StartAsync();
        return host;
    }
}
