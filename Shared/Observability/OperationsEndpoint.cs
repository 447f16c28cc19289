using System.Net;
using System.Text;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OpenTelemetry.Metrics;

namespace Notifications.Shared.Observability;

/// <summary>
/// A small Kestrel server beside the worker: <c>/metrics</c> (OpenTelemetry's Prometheus exporter over the
/// worker's meter provider), <c>/health/live</c>, <c>/health/ready</c> and <c>/health/started</c> (live, and ready once:
/// Docker's healthcheck), and the worker's own <see cref="OperationsRoute"/>s. It is a server of its own, not the worker's host, so the
/// workers stay plain generic hosts; a port that cannot be bound is logged and the worker keeps working.
/// </summary>
public sealed class OperationsEndpoint(
    MeterProvider meters,
    HealthCheckService health,
    IOptions<OperationsOptions> options,
    ILoggerFactory loggers,
    IEnumerable<OperationsRoute> routes) : IHostedService, IAsyncDisposable
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
        builder.WebHost.UseKestrelCore().ConfigureKestrel(k => k.Listen(IPAddress.Parse(o.Address), o.Port));
        var app = builder.Build();
        // The meter provider is the worker's (its host's container), not this small server's.
        app.UseOpenTelemetryPrometheusScrapingEndpoint(meters, predicate: null, path: "/metrics", configureBranchedPipeline: null, optionsName: null);
        app.Run(HandleAsync);
        try
        {
            await app.StartAsync(cancellationToken);
        }
        catch (IOException ex)
        {
            SharedLog.OperationsEndpointFailed(_logger, o.Address, o.Port, ex);
            await app.DisposeAsync();
            return;
        }

        _app = app;
        var bound = app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        Address = new Uri(bound);
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

    private Task HandleAsync(HttpContext context) => context.Request.Path.Value switch
    {
        "/health/live" => HealthAsync(context, "live"),
        "/health/ready" => HealthAsync(context, "ready"),
        "/health/started" => HealthAsync(context, "started"),
        var path when routes.FirstOrDefault(r => r.Path == path) is { } route => route.Handler(context),
        _ => WriteAsync(context, StatusCodes.Status404NotFound, "text/plain; charset=utf-8", "not found: try /metrics, /health/live, /health/ready or /health/started\n"),
    };

    private async Task HealthAsync(HttpContext context, string tag)
    {
        var report = await health.CheckHealthAsync(check => check.Tags.Contains(tag), context.RequestAborted);
        var text = new StringBuilder().Append(report.Status).Append('\n');
        foreach (var (name, entry) in report.Entries)
        {
            text.Append(name).Append(": ").Append(entry.Status).Append(" — ").Append(entry.Description).Append('\n');
        }

        int status = report.Status == HealthStatus.Unhealthy ? StatusCodes.Status503ServiceUnavailable : StatusCodes.Status200OK;
        await WriteAsync(context, status, "text/plain; charset=utf-8", text.ToString());
    }

    private static async Task WriteAsync(HttpContext context, int status, string contentType, string body)
    {
        context.Response.StatusCode = status;
        context.Response.ContentType = contentType;
        await context.Response.WriteAsync(body, context.RequestAborted);
    }
}
