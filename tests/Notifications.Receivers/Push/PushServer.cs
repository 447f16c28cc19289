using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Server.Kestrel.Core;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// One Kestrel server emulating what FCM HTTP v1 (with Google's OAuth2 token endpoint) and APNs check, over TLS with
/// the test certificate: <see cref="FcmBaseUrl"/> speaks HTTP/1.1 and h2 as Google does, <see cref="ApnsBaseUrl"/>
/// h2 only (ALPN) as Apple does. Every send is recorded in <see cref="Log"/>; tests script answers per provider.
/// </summary>
internal sealed class PushServer : IAsyncDisposable
{
    private readonly FcmTokenEndpoint tokens;
    private ReceiverHost? host;

    private PushServer(PushTrust trust, ReceiverMode mode)
    {
        Trust = trust;
        tokens = new FcmTokenEndpoint(trust);
        Log = new PushLog(mode.KeepRequests, mode.RecordArrivals);
    }

    public PushTrust Trust { get; }

    public TestCertificate Certificate { get; } = TestCertificate.Create();

    public PushLog Log { get; }

    public AnswerScript FcmScript { get; } = new();

    public AnswerScript ApnsScript { get; } = new();

    /// <summary>Base of <c>v1/projects/{project}/messages:send</c> (as https://fcm.googleapis.com/).</summary>
    public Uri FcmBaseUrl => Host.BaseAddress(0);

    /// <summary>The OAuth2 token endpoint a service account's <c>token_uri</c> names (as https://oauth2.googleapis.com/token).</summary>
    public Uri TokenUrl => new(Host.BaseAddress(0), "token");

    /// <summary>Base of <c>3/device/{token}</c> (as https://api.push.apple.com/), HTTP/2 only.</summary>
    public Uri ApnsBaseUrl => Host.BaseAddress(1);

    /// <summary>How many token requests the OAuth2 endpoint got.</summary>
    public int TokenRequests => tokens.Requests;

    private ReceiverHost Host => host ?? throw new InvalidOperationException("The push server is not started.");

    public static Task<PushServer> StartAsync(PushTrust trust, CancellationToken ct = default) => StartAsync(trust, ReceiverMode.Test, ct);

    /// <summary>
    /// Starts a server as <paramref name="mode"/> says; with a port, FCM and the token endpoint listen on it and APNs on the
    /// next one.
    /// </summary>
    public static async Task<PushServer> StartAsync(PushTrust trust, ReceiverMode mode, CancellationToken ct)
    {
        var server = new PushServer(trust, mode);
        var fcm = new FcmEndpoint(trust, server.tokens, server.Log, server.FcmScript);
        var apns = new ApnsEndpoint(trust, server.Log, server.ApnsScript);
        int apnsPort = mode.Port == 0 ? 0 : mode.Port + 1;
        ReceiverEndpoint[] endpoints = [new(HttpProtocols.Http1AndHttp2, Tls: true, mode.Port), new(HttpProtocols.Http2, Tls: true, apnsPort)];
        server.host = await ReceiverHost.StartAsync(server.Certificate, endpoints, (app, host) =>
        {
            app.MapPost("/token", (HttpContext context) => server.tokens.HandleAsync(context, server.TokenUrl));
            app.MapPost("/v1/projects/{project}/{action}",
                (HttpContext context, string project, string action) => fcm.HandleAsync(context, host, project, action));
            app.MapPost("/3/device/{token}", (HttpContext context, string token) => apns.HandleAsync(context, host, token));
            ReceiverHost.MapCounts(app, server.Log.Receipts);
            if (server.Log.Arrivals is { } arrivals)
            {
                ReceiverHost.MapArrivals(app, arrivals);
            }
        }, ct);
        return server;
    }

    public async ValueTask DisposeAsync()
    {
        if (host is not null)
        {
            await host.DisposeAsync();
        }

        Certificate.Dispose();
    }
}
