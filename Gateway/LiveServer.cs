using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Notifications.Gateway.Transports;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Gateway;

/// <summary>
/// The gateway's public server (docs/live.md): <c>GET /live?access_token=&lt;jwt&gt;</c> upgraded to a WebSocket, and on
/// <see cref="GatewayOptions.GrpcPort"/> (HTTP/2) the gRPC service <c>notifications.live.v1.Live</c>
/// (<see cref="LiveGrpcService"/>); each connection a <see cref="LiveSession"/>. A WebSocket request without a valid token is
/// refused before the upgrade: 401 with the reason as text. Every other path is 404.
/// </summary>
internal sealed partial class LiveServer(
    LiveTokenCheck tokens, LivePendingRows pending, Presence presence, GatewayMetrics metrics, IOptions<GatewayOptions> options,
    ILoggerFactory loggers)
    : PublicServer
{
    private CancellationToken _stopping;

    public const string Path = "/live";

    /// <summary>The gRPC endpoint's bound address (HTTP/2), once started.</summary>
    public Uri? GrpcAddress { get; private set; }
    private readonly ILogger _logger = loggers.CreateLogger<LiveServer>();

    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        var o = options.Value;
        var builder = CreateBuilder(loggers);
        // Off: the hosting layer's request log (request started/finished, Debug and Information: nothing at Warning). While
        // that logger is enabled at all, every request gets a log scope and an Activity, and a WebSocket's request lasts
        // as long as the connection: about 1 KB each of an idle connection's memory (docs/live.md, "Measured").
        builder.Logging.AddFilter("Microsoft.AspNetCore.Hosting.Diagnostics", LogLevel.None);
        builder.WebHost.ConfigureKestrel(k =>
        {
            k.AddServerHeader = false;
            // With a certificate both ports speak TLS (wss://, and gRPC over h2 negotiated by ALPN); without one, plain.
            k.Listen(IPAddress.Parse(o.Address), o.Port, listen => UseTls(listen, o));
            // gRPC needs HTTP/2, which a cleartext port serves only on its own (no upgrade from HTTP/1.1 to negotiate it).
            k.Listen(IPAddress.Parse(o.Address), o.GrpcPort, listen =>
            {
                listen.Protocols = HttpProtocols.Http2;
                UseTls(listen, o);
            });
        });
        // A connection's continuations on the socket's I/O thread (Gateway:InlineScheduling): nothing there blocks.
        builder.WebHost.UseSockets(s => s.UnsafePreferInlineScheduling = o.InlineScheduling);
        if (o.Https)
        {
            builder.WebHost.UseKestrelHttpsConfiguration();
        }

        builder.Services.AddGrpc();
        builder.Services.AddSingleton(tokens).AddSingleton(pending).AddSingleton(presence).AddSingleton(options);
        var app = builder.Build();
        // Stopping, the gateway closes each connection (1001) so its client reconnects to another node at once.
        _stopping = app.Lifetime.ApplicationStopping;
        app.UseWebSockets(new WebSocketOptions { KeepAliveInterval = TimeSpan.FromSeconds(30) });
        app.MapGet(Path, AcceptAsync);
        app.MapGrpcService<LiveGrpcService>();
        app.MapFallback("{**path}", context =>
        {
            context.Response.StatusCode = StatusCodes.Status404NotFound;
            return Task.CompletedTask;
        });
        var bound = await ListenAsync(app, ex => LogCannotListen(_logger, o.Address, o.Port, ex), cancellationToken);
        GrpcAddress = Addresses[1];
        LogStarted(_logger, bound, GrpcAddress);
    }

    private async Task AcceptAsync(HttpContext context)
    {
        var (subscriber, refusal) = await tokens.ValidateAsync(context.Request.Query["access_token"]);
        if (subscriber is null)
        {
            LogRefused(_logger, refusal!);
            metrics.Refused();
            context.Response.StatusCode = StatusCodes.Status401Unauthorized;
            // RFC 6750's challenge, the reason in it too: a WebSocket client sees the headers of a refused handshake, not its body.
            context.Response.Headers.WWWAuthenticate = $"Bearer error=\"invalid_token\", error_description=\"{refusal}\"";
            await context.Response.WriteAsync(refusal + "\n", context.RequestAborted);
            return;
        }

        if (!context.WebSockets.IsWebSocketRequest)
        {
            context.Response.StatusCode = StatusCodes.Status400BadRequest;
            await context.Response.WriteAsync("a WebSocket upgrade is expected here\n", context.RequestAborted);
            return;
        }

        using var socket = await context.WebSockets.AcceptWebSocketAsync();
        await new LiveSession(new WebSocketTransport(socket), subscriber, pending, presence, options.Value, _logger).RunAsync(context.RequestAborted, _stopping);
    }

    private static void UseTls(ListenOptions listen, GatewayOptions options)
    {
        if (options.Https)
        {
            listen.UseHttps(GatewayOptionsValidator.Load(options));
        }
    }

    [LoggerMessage(EventId = 7500, Level = LogLevel.Information, Message = "Gateway listening on {Address} (WebSocket) and {GrpcAddress} (gRPC)")]
    private static partial void LogStarted(ILogger logger, Uri address, Uri grpcAddress);

    [LoggerMessage(EventId = 7502, Level = LogLevel.Critical, Message = "Gateway cannot listen on {Address}:{Port}; stopping")]
    private static partial void LogCannotListen(ILogger logger, string address, int port, Exception exception);

    [LoggerMessage(EventId = 7501, Level = LogLevel.Information, Message = "Live connection refused: {Reason}")]
    private static partial void LogRefused(ILogger logger, string reason);
}
