using System.Net;
using System.Net.WebSockets;
using System.Security.Cryptography.X509Certificates;
using Dapper;
using Grpc.Core;
using Grpc.Net.Client;
using Notifications.Gateway;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.LiveSwarm;
using Notifications.Shared.Observability;
using static Notifications.IntegrationTests.Live.LiveWire;
using LiveGrpc = Notifications.Gateway.Transports.Grpc.Live;

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
    public async Task Wss_ClientTrustingTheStacksCa_GetsItsPendingNotification_GrpcOverTlsToo_OneTrustingNothingIsRefused()
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
        trusting.Options.RemoteCertificateValidationCallback = (_, certificate, _, errors) => CaTrust.IssuedBy(ca, certificate, errors);
        await trusting.ConnectAsync(wss, CancellationToken.None);
        var frame = await ReceiveAsync(trusting);

        Assert.Equal(("notification", "7001", "Over TLS"),
            (frame.GetProperty("type").GetString(), frame.GetProperty("id").GetString(), frame.GetProperty("subject").GetString()));
        await AckAsync(trusting, "7001");
        await Eventually.WaitAsync(PendingAsync, p => p.SequenceEqual([7002L]), Patience, "the ack over TLS recorded");
        await trusting.CloseAsync(WebSocketCloseStatus.NormalClosure, null, CancellationToken.None);
        // The gRPC port speaks TLS with the same certificate (h2 by ALPN): a mobile app's stream gets tls-bo's row.
        using var grpc = GrpcChannel.ForAddress(new UriBuilder("https", "localhost", gateway.Get<LiveServer>().GrpcAddress!.Port).Uri,
            new GrpcChannelOptions { HttpHandler = new SocketsHttpHandler
            {
                SslOptions = { RemoteCertificateValidationCallback = (_, certificate, _, errors) => CaTrust.IssuedBy(ca, certificate, errors) },
            } });
        using var call = new LiveGrpc.LiveClient(grpc).Connect(new Metadata { { "authorization", "Bearer " + Token("tls-bo", key) } });
        using (var timeout = new CancellationTokenSource(Patience))
        {
            Assert.True(await call.ResponseStream.MoveNext(timeout.Token), "the gRPC stream ended");
        }

        Assert.Equal((7002L, "Over TLS too"), (call.ResponseStream.Current.Notification.Id, call.ResponseStream.Current.Notification.Subject));
        // The throwaway CA is no system root: a client that trusts only those refuses the gateway, and plain ws:// gets no answer.
        using var untrusting = new ClientWebSocket();
        await Assert.ThrowsAsync<WebSocketException>(() => untrusting.ConnectAsync(wss, CancellationToken.None));
        using var plain = new ClientWebSocket();
        await Assert.ThrowsAsync<WebSocketException>(() => plain.ConnectAsync(new UriBuilder(wss) { Scheme = "ws" }.Uri, CancellationToken.None));
    }

    /// <summary>scripts/swarm's live clients (tests/Notifications.LiveSwarm) against a real gateway over TLS, before a swarm run relies on them.</summary>
    [Fact]
    public async Task SwarmClients_OverWssTrustingTheCa_EachGetsItsSubscribersNotificationAndAcksIt()
    {
        var (exit, _, error) = await BashRun.RunAsync("scripts/tls-certs", _tls, "--name", "gateway");
        Assert.True(exit == 0, error);
        await SeedAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"""
                INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, body) VALUES
                    (7100, 'swarm-0', 'a', 'a'), (7101, 'swarm-1', 'b', 'b'), (7102, 'swarm-1', 'c', 'c')
                """);
        }

        string key = NewKey(), keyFile = Path.Combine(_tls, "token.key"), log = Path.Combine(_tls, "events.log");
        await File.WriteAllTextAsync(keyFile, key + "\n");
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key),
            ("Gateway:Certificate", Path.Combine(_tls, "gateway.crt")), ("Gateway:CertificateKey", Path.Combine(_tls, "gateway.key")));
        var options = new SwarmOptions(new UriBuilder("wss", "localhost", gateway.Get<LiveServer>().Address!.Port, LiveServer.Path).Uri,
            Path.Combine(_tls, "ca.crt"), keyFile, Clients: 2, "swarm-", log);
        using var ca = X509Certificate2.CreateFromPem(await File.ReadAllTextAsync(options.CaFile));
        using var stop = new CancellationTokenSource();
        Task[] clients;
        await using (var events = new EventLog(log))
        {
            clients = [new SwarmClient(0, options, key, ca, events).RunAsync(stop.Token), new SwarmClient(1, options, key, ca, events).RunAsync(stop.Token)];
            await Eventually.WaitAsync(PendingAsync, p => p.Count == 2, Patience, "the swarm clients' acks recorded (tls-ana's and tls-bo's rows left)");
            await stop.CancelAsync();
            await Task.WhenAll(clients);
        }

        var received = File.ReadAllLines(log).Where(l => l.StartsWith("received ", StringComparison.Ordinal)).Order(StringComparer.Ordinal);
        Assert.Equal(["received 0 7100", "received 1 7101", "received 1 7102"], received);
        Assert.Equal([7001L, 7002L], await PendingAsync());
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

    // A gauge's value in Prometheus' text format: "name{labels} value".
    private static string? Gauge(string metrics, string name) =>
        metrics.Split('\n').FirstOrDefault(l => l.StartsWith(name + "{", StringComparison.Ordinal))?.Split(' ')[^1];

    private static async Task SeedAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"""
            DELETE FROM {S}.live_pending;
            INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, body) VALUES
                (7001, 'tls-ana', 'Over TLS', 'a'), (7002, 'tls-bo', 'Over TLS too', 'b');
            """);
    }

    private static async Task<List<long>> PendingAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>($"SELECT notification_id FROM {S}.live_pending ORDER BY notification_id")).AsList();
    }

    private static async Task<(HttpStatusCode Status, string Body)> GetAsync(Uri address, string path)
    {
        using var response = await Http.GetAsync(new Uri(address, path));
        return (response.StatusCode, await response.Content.ReadAsStringAsync());
    }
}
