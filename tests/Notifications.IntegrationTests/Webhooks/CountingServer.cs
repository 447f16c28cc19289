using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary>
/// A plain-HTTP server on loopback that counts the requests it gets and answers each the same way: a status, with a
/// <c>Location</c> when it redirects, and a body that repeats the request's path and query when asked (as many frameworks'
/// error pages do). An internal service a redirect points at, or an endpoint that answers 3xx or 4xx.
/// </summary>
internal sealed class CountingServer : IAsyncDisposable
{
    private readonly TestCertificate _certificate;
    private ReceiverHost? _host;
    private int _requests;

    private CountingServer(TestCertificate certificate) => _certificate = certificate;

    /// <summary>Its root (any path is answered).</summary>
    public Uri BaseAddress => (_host ?? throw new InvalidOperationException("not started")).BaseAddress(0);

    public int Requests => Volatile.Read(ref _requests);

    public static async Task<CountingServer> StartAsync(HttpStatusCode status, Uri? location = null, bool echoPath = false)
    {
        var server = new CountingServer(TestCertificate.Create());
        server._host = await ReceiverHost.StartAsync(server._certificate, [new ReceiverEndpoint(HttpProtocols.Http1, Tls: false)], (app, _) =>
            app.Map("/{**path}", async context =>
            {
                Interlocked.Increment(ref server._requests);
                context.Response.StatusCode = (int)status;
                if (location is not null)
                {
                    context.Response.Headers.Location = location.ToString();
                }

                if (echoPath)
                {
                    await context.Response.WriteAsync($"Cannot {context.Request.Method} {context.Request.Path}{context.Request.QueryString}", context.RequestAborted);
                }
            }), CancellationToken.None);
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        if (_host is not null)
        {
            await _host.DisposeAsync();
        }

        _certificate.Dispose();
    }
}
