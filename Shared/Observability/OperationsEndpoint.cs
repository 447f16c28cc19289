using System.Net;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OpenTelemetry.Metrics;

namespace Notifications.Shared.Observability;

/// <summary>
/// A small Kestrel server beside the worker, all by endpoint routing: <c>/metrics</c> (OpenTelemetry's Prometheus
/// exporter over the worker's meter provider), <c>/health/live</c>, <c>/health/ready</c> and <c>/health/started</c>
/// (ASP.NET Core's health checks middleware, each running the worker's checks with that tag; started is what
/// Docker's healthcheck asks), <c>/breakers</c> (its circuit breakers now: <see cref="BreakerBoard"/>, for the operators'
/// console), <c>/presence</c> (a live gateway's connected subscribers: <see cref="PresenceBoard"/>), nothing else: no page a worker serves to the public shares this port (the unsubscribe
/// process has a server of its own). It is a server of its own, not the worker's host, so the workers stay plain
/// generic hosts; a port that cannot be bound is logged and the worker keeps working.
/// </summary>
public sealed class OperationsEndpoint(
    MeterProvider meters,
    HealthCheckService health,
    BreakerBoard breakers,
    PresenceBoard presence,
    IOptions<OperationsOptions> options,
    ILoggerFactory loggers) : IHostedService, IAsyncDisposable
{
    private readonly ILogger _logger = loggers.CreateLogger<OperationsEndpoint>();
    private WebApplication? _app;

    /// <summary>The bound address, e.g. <c>http://127.0.0.1:9464</c>, once started; null if not running.</summary>
    public Uri? Address { get; private set; }

    /// <inheritdoc />
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        var o = options.Value;
        if (!o.Enabled)
        {
            return;
        }

        var builder = WebApplication.CreateEmptyBuilder(new WebApplicationOptions());
        // Only warnings of the server itself (no line per scrape), in the worker's log.
        builder.Logging.ClearProviders().AddProvider(new ForwardingLoggerProvider(loggers))
            .AddFilter("Microsoft.AspNetCore", LogLevel.Warning).AddFilter("Microsoft.Hosting", LogLevel.Warning);
        builder.Services.AddSingleton<IHostLifetime, EndpointLifetime>();
        // The checks are the worker's (registered with its host, tagged live, ready or started): MapHealthChecks asks
        // this server's container for the service that runs them.
        builder.Services.AddRouting().AddSingleton(health);
        builder.WebHost.UseKestrelCore().ConfigureKestrel(k => k.Listen(IPAddress.Parse(o.Address), o.Port));
        var app = builder.Build();
        // The meter provider is the worker's (its host's container), not this small server's.
        app.MapPrometheusScrapingEndpoint("/metrics", meters, configureBranchedPipeline: null, optionsName: null);
        foreach (string tag in (string[])["live", "ready", "started"])
        {
            app.MapHealthChecks($"/health/{tag}", new HealthCheckOptions { Predicate = check => check.Tags.Contains(tag), ResponseWriter = WriteReportAsync });
        }

        app.MapGet("/breakers", context =>
        {
            context.Response.ContentType = "application/json";
            return context.Response.Body.WriteAsync(BreakerJson.Write(breakers.Read()), context.RequestAborted).AsTask();
        });
        app.MapGet("/presence", context =>
        {
            if (presence.Read() is not { } connected)
            {
                return NotFoundAsync(context);
            }

            context.Response.ContentType = "application/json";
            return context.Response.Body.WriteAsync(PresenceJson.Write(connected), context.RequestAborted).AsTask();
        });
        app.MapFallback("{**path}", NotFoundAsync);
        if (await EndpointStart.StartAsync(app, ex => SharedLog.OperationsEndpointFailed(_logger, o.Address, o.Port, ex), cancellationToken) is not { } bound)
        {
            return;
        }

        _app = app;
        Address = bound;
        SharedLog.OperationsEndpointStarted(_logger, Address);
    }

    /// <inheritdoc />
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_app is not null)
        {
            await _app.StopAsync(cancellationToken);
        }
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (_app is not null)
        {
            await _app.DisposeAsync();
        }
    }

    // One line with the overall status, then one a check ("broker: Healthy — connected"): what operators and the
    // --healthcheck probe read. The status code is MapHealthChecks' own (503 when unhealthy, else 200).
    private static Task WriteReportAsync(HttpContext context, HealthReport report)
    {
        var text = new StringBuilder().Append(report.Status).Append('\n');
        foreach (var (name, entry) in report.Entries)
        {
            text.Append(name).Append(": ").Append(entry.Status).Append(" — ").Append(entry.Description).Append('\n');
        }

        return WriteAsync(context, text.ToString());
    }

    private static Task NotFoundAsync(HttpContext context)
    {
        context.Response.StatusCode = StatusCodes.Status404NotFound;
        return WriteAsync(context, "not found: try /metrics, /health/live, /health/ready, /health/started or /breakers\n");
    }

    private static Task WriteAsync(HttpContext context, string body)
    {
        context.Response.ContentType = "text/plain; charset=utf-8";
        return context.Response.WriteAsync(body, context.RequestAborted);
    }
}
