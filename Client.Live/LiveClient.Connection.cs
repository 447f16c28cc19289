using System.Buffers;
using System.Net;
using System.Net.WebSockets;
using System.Text.Json;
using System.Threading.Channels;

namespace Notifications.Client.Live;

/// <summary>The connection loop: connect (retried by the Polly pipeline), receive until the connection ends, wait, again.</summary>
public sealed partial class LiveClient
{
    // Never throws: the reader's stop ends it; every other failure is reported and retried.
    private async Task RunAsync(ChannelWriter<LiveNotification> received, CancellationToken stop)
    {
        try
        {
            while (!_closing)
            {
                _attempt = 1;
                using var socket = await _connect.ExecuteAsync(ConnectAsync, stop);
                Volatile.Write(ref _socket, socket);
                Report(LiveClientState.Connected, _attempt, null, null);
                LiveClientLog.Connected(_logger, _options.Uri);
                var ended = await ReceiveAsync(socket, received, stop);
                Volatile.Write(ref _socket, null);
                if (_closing)
                {
                    return;
                }

                // The connection was up: back-off starts over, but a herd dropped at once by a restart still spreads out.
                var pause = _backoff.Delay(0);
                LiveClientLog.Disconnected(_logger, pause, ended);
                Report(LiveClientState.Disconnected, 1, pause, ended);
                await Task.Delay(pause, stop);
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The reader stopped.
        }
        finally
        {
            Volatile.Write(ref _socket, null);
            received.TryComplete();
        }
    }

    private async ValueTask<ClientWebSocket> ConnectAsync(CancellationToken stop)
    {
        Report(LiveClientState.Connecting, _attempt, null, null);
        string token = await _options.TokenProvider(stop);
        var socket = new ClientWebSocket();
        socket.Options.CollectHttpResponseDetails = true;
        _options.ConfigureSocket?.Invoke(socket.Options);
        var uri = new UriBuilder(_options.Uri) { Query = "access_token=" + Uri.EscapeDataString(token) }.Uri;
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(stop);
        timeout.CancelAfter(_options.ConnectTimeout);
        try
        {
            await socket.ConnectAsync(uri, timeout.Token);
            return socket;
        }
        catch (WebSocketException ex) when (socket.HttpStatusCode == HttpStatusCode.Unauthorized)
        {
            socket.Dispose();
            throw new LiveTokenRefusedException(await RefusalAsync(uri, stop), ex);
        }
        catch (OperationCanceledException) when (!stop.IsCancellationRequested)
        {
            socket.Dispose();
            throw new TimeoutException($"The gateway did not answer within {_options.ConnectTimeout}.");
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    // The gateway writes its reason in the 401's body, which a WebSocket handshake does not expose: ask once more over
    // plain HTTP (a refusal is rare and backed off, so the second request costs little).
    private async Task<string> RefusalAsync(Uri uri, CancellationToken stop)
    {
        var http = new UriBuilder(uri) { Scheme = uri.Scheme == "wss" ? "https" : "http" }.Uri;
        try
        {
            using var client = new HttpClient { Timeout = _options.ConnectTimeout };
            using var response = await client.GetAsync(http, stop);
            string reason = (await response.Content.ReadAsStringAsync(stop)).Trim();
            return response.StatusCode == HttpStatusCode.Unauthorized && reason.Length > 0 ? reason : "401 Unauthorized";
        }
        catch (HttpRequestException ex)
        {
            LiveClientLog.RefusalUnread(_logger, ex);
            return "401 Unauthorized";
        }
    }

    // Until the connection ends: null when the gateway closed it normally, else why it ended.
    private async Task<Exception?> ReceiveAsync(ClientWebSocket socket, ChannelWriter<LiveNotification> received, CancellationToken stop)
    {
        var frame = new ArrayBufferWriter<byte>(4096);
        try
        {
            while (await LiveFrames.ReceiveAsync(socket, frame, stop) == WebSocketMessageType.Text)
            {
                await HandleAsync(socket, LiveFrames.Notification(frame.WrittenSpan), received, stop);
            }

            return socket.CloseStatus is null or WebSocketCloseStatus.NormalClosure or WebSocketCloseStatus.EndpointUnavailable
                ? null
                : new WebSocketException($"The gateway closed the connection: {socket.CloseStatus} {socket.CloseStatusDescription}");
        }
        catch (Exception ex) when (ex is WebSocketException or InvalidDataException or JsonException)
        {
            return ex;
        }
    }

    private async Task HandleAsync(ClientWebSocket socket, LiveNotification? notification, ChannelWriter<LiveNotification> received, CancellationToken stop)
    {
        if (notification is null)
        {
            LiveClientLog.FrameSkipped(_logger);
            return;
        }

        switch (_recent.Receive(notification.Id))
        {
            case RecentIds.Copy.New:
                await received.WriteAsync(notification, stop);
                break;
            case RecentIds.Copy.Acked:
                LiveClientLog.Duplicate(_logger, notification.Id, true);
                await SendAckAsync(socket, notification.Id, stop);
                break;
            default:
                LiveClientLog.Duplicate(_logger, notification.Id, false);
                break;
        }
    }

    // ClientWebSocket takes one send at a time; acks come from the app and from this loop.
    private async Task SendAckAsync(ClientWebSocket socket, string id, CancellationToken cancellationToken)
    {
        await _sending.WaitAsync(cancellationToken);
        try
        {
            await socket.SendAsync(LiveFrames.Ack(id), WebSocketMessageType.Text, endOfMessage: true, cancellationToken);
        }
        catch (Exception ex) when (ex is WebSocketException or ObjectDisposedException)
        {
            // Recorded as acked: sent again when the gateway replays it on the next connection.
            LiveClientLog.AckNotSent(_logger, id, ex);
        }
        finally
        {
            _sending.Release();
        }
    }

    private void OnConnectFailed(int attempt, TimeSpan retryIn, Exception error)
    {
        var state = error is LiveTokenRefusedException ? LiveClientState.Refused : LiveClientState.Disconnected;
        if (error is LiveTokenRefusedException refused)
        {
            LiveClientLog.Refused(_logger, refused.Reason, attempt, retryIn);
        }
        else
        {
            LiveClientLog.ConnectFailed(_logger, attempt, retryIn, error);
        }

        Report(state, attempt, retryIn, error);
        _attempt = attempt + 1;
    }

    private void Report(LiveClientState state, int attempt, TimeSpan? retryIn, Exception? error)
    {
        try
        {
            StateChanged?.Invoke(this, new LiveStateChangedEventArgs(state, attempt, retryIn, error));
        }
        catch (Exception ex)
        {
            // The app's handler must not end the connection loop.
            LiveClientLog.StateHandlerFailed(_logger, state, ex);
        }
    }
}
