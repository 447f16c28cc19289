using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.Logging;
using Notifications.Client.Live;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// The business app's side of samples/live-page on Kestrel: the page, the browser module beside it (served from
/// Client.Live/browser as checked in) and <c>GET /live-token</c>, a fresh token for its user on each call, as an app's server mints it.
/// </summary>
internal sealed class LivePageServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private LivePageServer(WebApplication app, Uri address)
    {
        _app = app;
        Address = address;
    }

    public Uri Address { get; }

    /// <summary>How many tokens the page asked for (one per connection attempt).</summary>
    public int TokensMinted => _minted;

    private int _minted;

    public static async Task<LivePageServer> StartAsync(string key, string subscriber)
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.UseUrls("http://127.0.0.1:0");
        var app = builder.Build();
        LivePageServer? server = null;
        app.MapGet("/", () => Results.File(RepositoryLayout.File("samples", "live-page", "index.html"), "text/html; charset=utf-8"));
        app.MapGet("/notifications-live.js", () => Results.File(RepositoryLayout.File("Client.Live", "browser", "notifications-live.js"), "text/javascript; charset=utf-8"));
        app.MapGet("/live-token", () =>
        {
            Interlocked.Increment(ref server!._minted);
            return Results.Text(LiveTokens.Mint(key, subscriber, TimeSpan.FromMinutes(5)));
        });
        await app.StartAsync();
        var address = new Uri(app.Urls.Single());   // the port Kestrel picked
        server = new LivePageServer(app, address);
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync();
        await _app.DisposeAsync();
    }
}
