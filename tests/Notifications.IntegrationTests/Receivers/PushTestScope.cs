using System.Net;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>A push test's world: fresh keys, a started push server that trusts them, and a client that trusts its certificate.</summary>
internal sealed class PushTestScope : IAsyncDisposable
{
    private string? providerToken;

    private PushTestScope(PushTestKeys keys, PushServer server)
    {
        Keys = keys;
        Server = server;
        Client = server.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(20));
    }

    public PushTestKeys Keys { get; }

    public PushServer Server { get; }

    public HttpClient Client { get; }

    public static async Task<PushTestScope> StartAsync(CancellationToken ct)
    {
        var keys = new PushTestKeys();
        return new PushTestScope(keys, await PushServer.StartAsync(keys.Trust, ct));
    }

    /// <summary>
    /// The scope's APNs provider token, signed once when first asked for: a provider keeps one token on a connection (a new one
    /// within 20 minutes is refused, <see cref="ApnsTokenUpdates"/>).
    /// </summary>
    public string ProviderToken => providerToken ??= Keys.CreateProviderToken(DateTimeOffset.UtcNow);

    public Task<string> AccessTokenAsync() => PushRequests.AccessTokenAsync(Client, Server, Keys);

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        await Server.DisposeAsync();
        Keys.Dispose();
    }
}
