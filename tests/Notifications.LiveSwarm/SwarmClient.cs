using System.Net;
using System.Net.Sockets;
using System.Net.WebSockets;
using System.Security.Cryptography.X509Certificates;
using System.Text;
using System.Text.Json;
using Notifications.Client.Live;

namespace Notifications.LiveSwarm;

/// <summary>
/// One app's client: subscriber <c>{prefix}{index}</c>, a fresh token before every connection, the gateway's certificate
/// checked against the stack's CA only, and the replica chosen by the client (the service name resolves to every replica,
/// endpoint_mode dnsrr): the index-th address at first, the next one on each reconnect, so the clients spread across the
/// replicas and one whose replica died goes to another. Every notification is written and acked at once.
/// </summary>
internal sealed class SwarmClient(int index, SwarmOptions options, string key, X509Certificate2 ca, EventLog events)
{
    private int _attempt;
    private string _address = "-";

    public async Task RunAsync(CancellationToken stopping)
    {
        using var handler = new SocketsHttpHandler
        {
            ConnectCallback = ConnectAsync,
            SslOptions = { RemoteCertificateValidationCallback = (_, certificate, _, errors) => CaTrust.IssuedBy(ca, certificate, errors) },
        };
        using var invoker = new HttpMessageInvoker(handler);
        while (!stopping.IsCancellationRequested)
        {
            string reason;
            try
            {
                reason = await SessionAsync(invoker, stopping);
            }
            catch (Exception ex) when (ex is WebSocketException or HttpRequestException or IOException or SocketException or OperationCanceledException)
            {
                reason = ex.GetType().Name + ": " + ex.Message.ReplaceLineEndings(" ");
            }

            if (stopping.IsCancellationRequested)
            {
                return;
            }

            events.Write($"disconnected {index} {_address} {reason}");
            _attempt++;
            try
            {
                // Spread out as LiveClient's full jitter does, short: the run measures delivery, not back-off.
                await Task.Delay(TimeSpan.FromMilliseconds(Random.Shared.Next(100, 1_000)), stopping);
            }
            catch (OperationCanceledException)
            {
                return;
            }
        }
    }

    private async Task<string> SessionAsync(HttpMessageInvoker invoker, CancellationToken stopping)
    {
        using var socket = new ClientWebSocket();
        string token = LiveTokens.Mint(key, options.Prefix + index, TimeSpan.FromMinutes(5));
        var uri = new UriBuilder(options.Uri) { Query = "access_token=" + Uri.EscapeDataString(token) }.Uri;
        using (var connectTimeout = CancellationTokenSource.CreateLinkedTokenSource(stopping))
        {
            connectTimeout.CancelAfter(TimeSpan.FromSeconds(15));
            await socket.ConnectAsync(uri, invoker, connectTimeout.Token);
        }

        events.Write($"connected {index} {_address}");
        var buffer = new byte[16 * 1024];
        while (true)
        {
            int count = 0;
            ValueWebSocketReceiveResult result;
            do
            {
                result = await socket.ReceiveAsync(buffer.AsMemory(count), stopping);
                count += result.Count;
            }
            while (!result.EndOfMessage && count < buffer.Length);

            if (result.MessageType == WebSocketMessageType.Close)
            {
                return $"closed {socket.CloseStatus} {socket.CloseStatusDescription}";
            }

            string id = JsonDocument.Parse(buffer.AsMemory(0, count)).RootElement.GetProperty("id").GetString()!;
            events.Write($"received {index} {id}");
            await socket.SendAsync(Encoding.UTF8.GetBytes($$"""{"type":"ack","id":"{{id}}"}"""), WebSocketMessageType.Text, true, stopping);
        }
    }

    private async ValueTask<Stream> ConnectAsync(SocketsHttpConnectionContext context, CancellationToken cancellationToken)
    {
        var addresses = (await Dns.GetHostAddressesAsync(context.DnsEndPoint.Host, cancellationToken)).OrderBy(a => a.ToString(), StringComparer.Ordinal).ToArray();
        if (addresses.Length == 0)
        {
            throw new SocketException((int)SocketError.HostNotFound);
        }

        var address = addresses[(index + _attempt) % addresses.Length];
        _address = address.ToString();
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(address, context.DnsEndPoint.Port, cancellationToken);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
