using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.Unsubscribe;

/// <summary>
/// The public server: <c>GET /unsubscribe?token=…</c> (the confirmation page) and <c>POST /unsubscribe?token=…</c> (RFC 8058
/// one-click, and the page's button) on <see cref="UnsubscribeServerOptions.Address"/>:<see cref="UnsubscribeServerOptions.Port"/>,
/// and nothing else: every other path, <c>/metrics</c> and <c>/health/*</c> included, is 404 here (those are on the
/// operations port). A server of its own beside the host, as the operations endpoint is; a port that cannot be bound
/// stops the process (answering here is all it is for).
/// </summary>
internal sealed class UnsubscribeServer(UnsubscribeRequests requests, LegacyUnsubscribeToken legacy, IOptions<UnsubscribeServerOptions> options, ILoggerFactory loggers) : PublicServer
{
    public const string Path = "/unsubscribe";
    private readonly ILogger _logger = loggers.CreateLogger<UnsubscribeServer>();

    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        var o = options.Value;
        var builder = CreateBuilder(loggers);
        builder.WebHost.ConfigureKestrel(k =>
        {
            k.AddServerHeader = false;
            k.Limits.MaxRequestBodySize = UnsubscribeRequests.MaxBodyBytes;
            k.Limits.MaxRequestLineSize = 4 * 1024;
            k.Limits.MaxRequestHeadersTotalSize = 16 * 1024;
            k.Listen(IPAddress.Parse(o.Address), o.Port, listen =>
            {
                if (o.Https)
                {
                    listen.UseHttps(UnsubscribeServerOptionsValidator.Load(o));
                }
            });
        });
        if (o.Https)
        {
            builder.WebHost.UseKestrelHttpsConfiguration();
        }

        var app = builder.Build();
        app.MapGet(Path, requests.ShowAsync);
        app.MapPost(Path, requests.UnsubscribeAsync);
        app.MapFallback("{**path}", NotFoundAsync);
        // The public page is the worker's whole job: a port it cannot bind stops it (event 5001).
        var bound = await ListenAsync(app, ex => UnsubscribeLog.ServerFailed(_logger, o.Address, o.Port, ex), cancellationToken);
        UnsubscribeLog.ServerStarted(_logger, bound);
        if (legacy.Enabled)
        {
            UnsubscribeLog.LegacyTokensHonoured(_logger);
        }
    }

    private static Task NotFoundAsync(HttpContext context)
    {
        context.Response.StatusCode = StatusCodes.Status404NotFound;
        context.Response.ContentType = "text/plain; charset=utf-8";
        return context.Response.WriteAsync("not found\n", context.RequestAborted);
    }
}
