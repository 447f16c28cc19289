using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Data;
using Notifications.Shared.Observability;

namespace Notifications.Gateway;

/// <summary>
/// The gateway's public server: <c>GET /live?access_token=&lt;jwt&gt;</c> upgraded to a WebSocket (<see cref="LiveConnection"/>).
/// A request without a valid token is refused before the upgrade: 401 with the reason as text. Every other path is 404.
/// </summary>
internal sealed partial class LiveServer(
    LiveTokenCheck tokens, ILivePendingStore pending, Presence presence, IOptions<GatewayOptions> options, ILoggerFactory loggers)
    : PublicServer
{
    private CancellationToken _stopping;

    public const string Path = "/live";
    private readonly ILogger _logger = loggers.CreateLogger<LiveServer>();

    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        var o = options.Value;
        var builder = CreateBuilder(loggers);
        builder.WebHost.ConfigureKestrel(k =>
        {
            k.AddServerHeader = false;
            k.Listen(IPAddress.Parse(o.Address), o.Port);
        });
        var app = builder.Build();
        // Stopping, the gateway closes each connection (1001) so its client reconnects to another node at once.
        _stopping = app.Lifetime.ApplicationStopping;
        app.UseWebSockets(new WebSocketOptions { KeepAliveInterval = TimeSpan.FromSeconds(30) });
        app.MapGet(Path, AcceptAsync);
        app.MapFallback("{**path}", context =>
        {
            context.Response.StatusCode = StatusCodes.Status404NotFound;
            return Task.CompletedTask;
        });
        var bound = await ListenAsync(app, ex => LogCannotListen(_logger, o.Address, o.Port, ex), cancellationToken);
        LogStarted(_logger, bound);
    }

    private async Task AcceptAsync(HttpContext context)
    {
        var (subscriber, refusal) = await tokens.ValidateAsync(context.Request.Query["access_token"]);
        if (subscriber is null)
        {
            LogRefused(_logger, refusal!);
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
        await new LiveConnection(socket, subscriber, pending, presence, options.Value, _logger).RunAsync(context.RequestAborted, _stopping);
    }

    [LoggerMessage(EventId = 7500, Level = LogLevel.Information, Message = "Gateway listening on {Address}")]
    private static partial void LogStarted(ILogger logger, Uri address);

    [LoggerMessage(EventId = 7502, Level = LogLevel.Critical, Message = "Gateway cannot listen on {Address}:{Port}; stopping")]
    private static partial void LogCannotListen(ILogger logger, string address, int port, Exception exception);

    [LoggerMessage(EventId = 7501, Level = LogLevel.Information, Message = "Live connection refused: {Reason}")]
    private static partial void LogRefused(ILogger logger, string reason);
}
