using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using OpenTelemetry.Trace;

namespace Notifications.Shared.Hosting;

/// <summary>
/// OpenTelemetry for a worker, wired in one place: its meter, the runtime's metrics and the Prometheus
/// exporter always; OTLP export of metrics and traces when <c>OTEL_EXPORTER_OTLP_ENDPOINT</c> is set.
/// Sampling, service name and the OTLP details come from the standard <c>OTEL_*</c> variables; without
/// <c>OTEL_TRACES_SAMPLER</c> the project's default sampler applies (<see cref="DefaultSampler"/>).
/// </summary>
public static class TelemetryHostingExtensions
{
    /// <summary>
    /// The activity sources a worker's traces are made of: its own (<c>Notifications.Producer</c>,
    /// <c>Notifications.Consumer</c>) and Npgsql's commands. Not RabbitMQ.Client's publish and deliver spans:
    /// the producer's and the consumer's own spans are the messaging spans, and they carry the trace context
    /// in the message themselves (<see cref="Messaging.TraceContextHeader"/>).
    /// </summary>
    public static TracerProviderBuilder AddNotificationsSources(this TracerProviderBuilder tracing) =>
        tracing.AddSource("Notifications.*").AddNpgsql();

    /// <summary>Adds the meter provider (Prometheus, plus OTLP if configured) and, only with an OTLP endpoint, the tracer provider.</summary>
    /// <param name="builder">The worker's host builder.</param>
    /// <param name="serviceName">The resource's <c>service.name</c> unless <c>OTEL_SERVICE_NAME</c> sets one.</param>
    /// <param name="meterName">The worker's own meter; only it is exported (two workers may share a test process).</param>
    public static IHostApplicationBuilder AddNotificationsTelemetry(this IHostApplicationBuilder builder, string serviceName, string meterName)
    {
        ArgumentNullException.ThrowIfNull(builder);
        bool otlp = ExportsOtlp(builder.Configuration);
        var telemetry = builder.Services.AddOpenTelemetry()
            .ConfigureResource(r => r.AddService(builder.Configuration["OTEL_SERVICE_NAME"] is { Length: > 0 } named ? named : serviceName))
            .WithMetrics(metrics =>
            {
                metrics.AddMeter(meterName).AddRuntimeInstrumentation().AddPrometheusExporter();
                if (otlp)
                {
                    metrics.AddOtlpExporter();
                }
            });
        // Without an exporter a tracer provider would only make every Activity be created and recorded for
        // nothing: no listener, so ActivitySource.StartActivity keeps returning null on the hot path.
        if (otlp)
        {
            telemetry.WithTracing(tracing =>
            {
                tracing.AddNotificationsSources().AddOtlpExporter();
                if (DefaultSampler(builder.Configuration) is { } sampler)
                {
                    tracing.SetSampler(sampler);
                }
            });
        }

        return builder;
    }

    /// <summary>
    /// The project's default sampler, used only while <c>OTEL_TRACES_SAMPLER</c> is not set:
    /// <c>parentbased_traceidratio</c> at <see cref="DefaultSampleRatio"/> (or <c>OTEL_TRACES_SAMPLER_ARG</c>).
    /// A row whose stored traceparent is sampled is always traced (the parent decides); of the rows without
    /// one, 1 in 100 starts a trace. The SDK's own default, <c>parentbased_always_on</c>, records and exports
    /// three spans of every notification: measured here that cost 23 % of the pipeline's throughput, 1 % cost
    /// nothing measurable (README, Traces). Null when the variable is set: the SDK reads it itself.
    /// </summary>
    internal static Sampler? DefaultSampler(IConfiguration configuration)
    {
        if (!string.IsNullOrWhiteSpace(configuration["OTEL_TRACES_SAMPLER"]))
        {
            return null;
        }

        double ratio = double.TryParse(configuration["OTEL_TRACES_SAMPLER_ARG"], System.Globalization.NumberStyles.Float,
            System.Globalization.CultureInfo.InvariantCulture, out double arg) && arg is >= 0 and <= 1 ? arg : DefaultSampleRatio;
        return new ParentBasedSampler(new TraceIdRatioBasedSampler(ratio));
    }

    /// <summary>The share of notifications without a sampled parent that start a trace by default.</summary>
    internal const double DefaultSampleRatio = 0.01;

    /// <summary>Whether the standard OTLP endpoint variable is set.</summary>
    internal static bool ExportsOtlp(IConfiguration configuration) =>
        !string.IsNullOrWhiteSpace(configuration["OTEL_EXPORTER_OTLP_ENDPOINT"]);
}
