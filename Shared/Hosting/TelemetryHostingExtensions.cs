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
/// Sampling, service name and the OTLP details come from the standard <c>OTEL_*</c> variables.
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
            telemetry.WithTracing(tracing => tracing.AddNotificationsSources().AddOtlpExporter());
        }

        return builder;
    }

    /// <summary>Whether the standard OTLP endpoint variable is set.</summary>
    internal static bool ExportsOtlp(IConfiguration configuration) =>
        !string.IsNullOrWhiteSpace(configuration["OTEL_EXPORTER_OTLP_ENDPOINT"]);
}
