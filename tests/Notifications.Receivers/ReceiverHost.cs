using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// A Kestrel server in this process with the given listeners (TLS with the test certificate, ALPN choosing h2 or
/// http/1.1 per listener's protocols), routes mapped by the caller. Stopping it ends requests left hanging.
/// </summary>
internal sealed class ReceiverHost : IAsyncDisposable
{
    private static readonly TimeSpan ShutdownTimeout = TimeSpan.FromSeconds(2);

    private readonly WebApplication app;
    private readonly CancellationTokenSource stopping = new();
    private readonly List<(ListenOptions Listen, bool Tls)> listeners;

    private ReceiverHost(WebApplication app, List<(ListenOptions Listen, bool Tls)> listeners)
    {
        this.app = app;
        this.listeners = listeners;
    }

    /// <summary>Fires when the server stops: hanging answers wait on it (and on the client's own abort).</summary>
    public CancellationToken Stopping => stopping.Token;

    public static async Task<ReceiverHost> StartAsync(
        TestCertificate certificate, IReadOnlyList<ReceiverEndpoint> endpoints, Action<WebApplication, ReceiverHost> map,
        CancellationToken ct)
    {
        var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions { Args = [] });
        builder.Logging.ClearProviders();
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = ShutdownTimeout);
        var listeners = new List<(ListenOptions Listen, bool Tls)>();
        builder.WebHost.ConfigureKestrel(kestrel =>
        {
            foreach (var endpoint in endpoints)
            {
                kestrel.Listen(IPAddress.Loopback, endpoint.Port, listen =>
                {
                    listen.Protocols = endpoint.Protocols;
                    if (endpoint.Tls)
                    {
                        listen.UseHttps(certificate.Certificate);
                    }

                    listeners.Add((listen, endpoint.Tls));
                });
            }
        });

        var app = builder.Build();
        var host = new ReceiverHost(app, listeners);
        map(app, host);
        await app.StartAsync(ct);
        return host;
    }

    /// <summary>Where a receiver answers its counts (<see cref="ReceiptCounts"/> as JSON), for the harness in another process.</summary>
    public const string CountsPath = "/_receiver/counts";

    /// <summary>Maps <c>GET</c> <see cref="CountsPath"/> to <paramref name="counter"/>'s snapshot.</summary>
    public static void MapCounts(WebApplication app, ReceiptCounter counter) =>
        app.MapGet(CountsPath, () => Results.Json(counter.Snapshot()));

    /// <summary>Where a push server recording arrivals answers their counts (<see cref="ArrivalCounts"/>), cheap, for progress.</summary>
    public const string ArrivalCountsPath = "/_receiver/arrivals/counts";

    /// <summary>Where it answers every delivery's first arrival, per notification id (<see cref="DeliveryArrivals.ByNotification"/>).</summary>
    public const string ArrivalsPath = "/_receiver/arrivals";

    /// <summary>Maps <see cref="ArrivalCountsPath"/> and <see cref="ArrivalsPath"/> to <paramref name="arrivals"/>.</summary>
    public static void MapArrivals(WebApplication app, DeliveryArrivals arrivals)
    {
        app.MapGet(ArrivalCountsPath, () => Results.Json(arrivals.Counts()));
        app.MapGet(ArrivalsPath, () => Results.Json(arrivals.ByNotification()));
    }

    /// <summary>The base address of listener <paramref name="index"/> (in the order given), with the port Kestrel bound.</summary>
    public Uri BaseAddress(int index)
    {
        var (listen, tls) = listeners[index];
        string scheme = tls ? "https" : "http";
        return new Uri($"{scheme}://127.0.0.1:{listen.IPEndPoint!.Port}/");
    }

    /// <summary>
    /// Writes a scripted answer (after its <see cref="ScriptedAnswer.Delay"/>), or waits without answering until the client
    /// aborts or the server stops.
    /// </summary>
    public async Task WriteScriptedAsync(HttpContext context, ScriptedAnswer answer, string? body, string contentType)
    {
        if (answer.Hang || answer.Delay is not null)
        {
            using var either = CancellationTokenSource.CreateLinkedTokenSource(context.RequestAborted, Stopping);
            bool waited = await Task.Delay(answer.Delay ?? Timeout.InfiniteTimeSpan, either.Token).ContinueWith(static t => t.IsCompletedSuccessfully,
                CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            if (!waited)
            {
                context.Abort();
                return;
            }
        }

        context.Response.StatusCode = (int)answer.Status;
        if (answer.RetryAfter is { } retryAfter)
        {
            context.Response.Headers.RetryAfter = ((int)retryAfter.TotalSeconds).ToString(System.Globalization.CultureInfo.InvariantCulture);
        }

        if (body is not null)
        {
            context.Response.ContentType = contentType;
            await context.Response.WriteAsync(body, context.RequestAborted);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await stopping.CancelAsync();
        await app.StopAsync(CancellationToken.None);
        await app.DisposeAsync();
        stopping.Dispose();
    }
}
