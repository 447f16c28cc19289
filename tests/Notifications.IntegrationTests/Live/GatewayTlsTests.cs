using System.Net;
using System.Net.Security;
using System.Net.WebSockets;
using System.Security.Cryptography.X509Certificates;
using Dapper;
using Notifications.Gateway;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Observability;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// The gateway as the stacks run it (docs/live.md, "In the stacks"): its public port over TLS with a certificate of the
/// stack's CA (scripts/tls-certs, PEM files as the secrets mount them), and its operations endpoint, which the stacks'
/// healthcheck asks.
/// </summary>
[Collection("services")]
public sealed class GatewayTlsTests : IDisposable
{
    private static readonly string S = TestDatabase.Schema;
    private static readonly HttpClient Http = new() { Timeout = TimeSpan.FromSeconds(10) };
    private readonly string _tls = Directory.CreateTempSubdirectory("gateway-tls-").FullName;

    [Fact]
    public async Task Wss_ClientTrustingTheStacksCa_GetsItsPendingNotification_OneTrustingNothingIsRefused()
    {
        var (exit, _, error) = await BashRun.RunAsync("scripts/tls-certs", _tls, "--name", "gateway");
        Assert.True(exit == 0, error);
        await SeedAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key),
            ("Gateway:Certificate", Path.Combine(_tls, "gateway.crt")), ("Gateway:CertificateKey", Path.Combine(_tls, "gateway.key")));
        var address = gateway.Get<LiveServer>().Address!;
        var wss = new UriBuilder("wss", "localhost", address.Port, LiveServer.Path) { Query = "access_token=" + Token("tls-ana", key) }.Uri;
        using var ca = X509Certificate2.CreateFromPem(await File.ReadAllTextAsync(Path.Combine(_tls, "ca.crt")));

        using var trusting = new ClientWebSocket();
        trusting.Options.RemoteCertificateValidationCallback = (_, certificate, _, errors) => IssuedBy(ca, certificate, errors);
        await trusting.ConnectAsync(wss, CancellationToken.None);
        var frame = await ReceiveAsync(trusting);

        Assert.Equal(("notification", "7001", "Over TLS"),
            (frame.GetProperty("type").GetString(), frame.GetProperty("id").GetString(), frame.GetProperty("subject").GetString()));
        await AckAsync(trusting, "7001");
        await Eventually.WaitAsync(PendingAsync, p => p.Count == 0, Patience, "the ack over TLS recorded");
        await trusting.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        // The throwaway CA is no system root: a client that trusts only those refuses the gateway, and plain ws:// gets no answer.
        using var untrusting = new ClientWebSocket();
        await Assert.ThrowsAsync<WebSocketException>(() => untrusting.ConnectAsync(wss, CancellationToken.None));
        using var plain = new ClientWebSocket();
        await Assert.ThrowsAsync<WebSocketException>(() => plain.ConnectAsync(new UriBuilder(wss) { Scheme = "ws" }.Uri, CancellationToken.None));
    }

    [Fact]
    public async Task Operations_ReadyOnceBrokerDatabaseAndPublicPortAreUp_MetricsCountConnections()
    {
        await SeedAsync();
        string key = NewKey();
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key));
        var operations = gateway.Get<OperationsEndpoint>().Address!;

        var (status, body) = await GetAsync(operations, "health/ready");
        Assert.Equal(HttpStatusCode.OK, status);
        Assert.Contains("broker: Healthy", body, StringComparison.Ordinal);
        Assert.Contains("database: Healthy", body, StringComparison.Ordinal);
        Assert.Contains("live-server: Healthy", body, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await GetAsync(operations, "health/started")).Status);

        using var first = await ConnectAsync(gateway, "tls-ana", key);
        using var second = await ConnectAsync(gateway, "tls-ana", key);
        Assert.Equal("7001", await ReceiveIdAsync(first));
        Assert.Equal("7001", await ReceiveIdAsync(second));
        var metrics = await Eventually.WaitAsync(() => GetAsync(operations, "metrics"),
            m => Gauge(m.Body, "notifications_gateway_connections") == "2", Patience, "two connections counted");
        Assert.Equal("1", Gauge(metrics.Body, "notifications_gateway_subscribers"));
        // The live port serves /live only: the operations are never on it.
        using var onLivePort = await Http.GetAsync(new Uri(gateway.Get<LiveServer>().Address!, "health/ready"));
        Assert.Equal(HttpStatusCode.NotFound, onLivePort.StatusCode);
    }

    public void Dispose() => Directory.Delete(_tls, recursive: true);

    // As a client that trusts the stack's CA (and only it) checks the gateway's certificate: its name, then its chain.
    private static bool IssuedBy(X509Certificate2 ca, X509Certificate? certificate, SslPolicyErrors errors)
    {
        if (certificate is null || (errors & ~SslPolicyErrors.RemoteCertificateChainErrors) != SslPolicyErrors.None)
        {
            return false;
        }

        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.Add(ca);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        using var leaf = new X509Certificate2(certificate);
        return chain.Build(leaf);
    }

    // A gauge's value in Prometheus' text format: "name{labels} value".
    private static string? Gauge(string metrics, string name) =>
        metrics.Split('\n').FirstOrDefault(l => l.StartsWith(name + "{", StringComparison.Ordinal))?.Split(' ')[^1];

    private static async Task SeedAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"""
            DELETE FROM {S}.live_pending;
            INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, body) VALUES (7001, 'tls-ana', 'Over TLS', 'a');
            """);
    }

    private static async Task<List<long>> PendingAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_pending")).AsList();
    }

    private static async Task<(HttpStatusCode Status, string Body)> GetAsync(Uri address, string path)
    {
        using var response = await Http.GetAsync(new Uri(address, path));
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }
}
