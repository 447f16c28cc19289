using System.Net;
using System.Net.Sockets;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// A TCP forwarder that can go silent: while blackholed it stops moving bytes in both directions and
/// leaves every socket open — no FIN, no RST — the way a dead network path looks. Only heartbeats can
/// tell. New connections are accepted but not forwarded until it is restored. It can also refuse: then every connection
/// is cut and each new one closed as soon as it is accepted (and counted), the way a service that went away looks.
/// </summary>
internal sealed class BlackholeProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly CancellationTokenSource _stop = new();
    private readonly int _targetPort;
    private readonly List<TcpClient> _sockets = [];
    private readonly List<Task> _pumps = [];
    private volatile TaskCompletionSource _open = Opened();
    private volatile bool _refusing;
    private CutPoint? _cutNext;
    private int _refused;
    private Task? _accepting;

    private BlackholeProxy(int targetPort) => _targetPort = targetPort;

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    public static BlackholeProxy Start(int targetPort)
    {
        var proxy = new BlackholeProxy(targetPort);
        proxy._listener.Start();
        proxy._accepting = proxy.AcceptAsync();
        return proxy;
    }

    /// <summary>Connections accepted and closed at once while refusing.</summary>
    public int Refused => Volatile.Read(ref _refused);

    public void Blackhole() => _open = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Cuts every connection and closes each new one at once until <see cref="Restore"/>.</summary>
    public void Refuse()
    {
        _refusing = true;
        CloseAll();
    }

    /// <summary>
    /// Forwards the next connection until its client's n-th AMQP channel.open (<see cref="AmqpChannelOpenCut"/>), which it
    /// does not forward: then it refuses (<see cref="Refuse"/>) and the task completes. The broker is gone at that step of the
    /// client's set-up, without timing luck. That connection's client-to-server bytes pass even while blackholed.
    /// </summary>
    public Task RefuseAtChannelOpen(int channelOpen)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(channelOpen, 1);
        var cut = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _cutNext, new CutPoint(channelOpen, cut));
        return cut.Task;
    }

    /// <summary>Forwards again; connections the blackhole stranded are closed (their peers gave up on them).</summary>
    public void Restore()
    {
        CloseAll();
        _refusing = false;
        _open.TrySetResult();
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        Restore();
        if (_accepting is not null)
        {
            await _accepting.ContinueWith(_ => { }, TaskScheduler.Default);
        }

        Task[] pumps;
        lock (_sockets)
        {
            pumps = [.. _pumps];
        }

        await Task.WhenAll(pumps);

        _stop.Dispose();
    }

    private void CloseAll()
    {
        lock (_sockets)
        {
            _sockets.ForEach(s => s.Dispose());
            _sockets.Clear();
        }
    }

    private static TaskCompletionSource Opened()
    {
        var open = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        open.SetResult();
        return open;
    }

    private async Task AcceptAsync()
    {
        while (!_stop.IsCancellationRequested)
        {
            var client = await _listener.AcceptTcpClientAsync(_stop.Token);
            if (_refusing)
            {
                Interlocked.Increment(ref _refused);
                client.Dispose();
                continue;
            }

            var upstream = new TcpClient();
            await upstream.ConnectAsync(IPAddress.Loopback, _targetPort, _stop.Token);
            lock (_sockets)
            {
                _sockets.Add(client);
                _sockets.Add(upstream);
            }

            var cutAt = Interlocked.Exchange(ref _cutNext, null);
            lock (_sockets)
            {
                _pumps.Add(cutAt is { } c ? CutAsync(client, upstream, c.ChannelOpen, c.Cut) : PumpAsync(client, upstream));
                _pumps.Add(PumpAsync(upstream, client));
            }
        }
    }

    private async Task CutAsync(TcpClient client, TcpClient upstream, int channelOpen, TaskCompletionSource cut)
    {
        try
        {
            await AmqpChannelOpenCut.CopyUntilAsync(client.GetStream(), upstream.GetStream(), channelOpen, _stop.Token);
            Refuse();
            cut.TrySetResult();
        }
        catch (Exception ex) when (ex is IOException or ObjectDisposedException or OperationCanceledException or SocketException)
        {
        }
        finally
        {
            client.Dispose();
            upstream.Dispose();
        }
    }

    private async Task PumpAsync(TcpClient from, TcpClient to)
    {
        byte[] buffer = new byte[64 * 1024];
        try
        {
            while (true)
            {
                await _open.Task;
                int read = await from.GetStream().ReadAsync(buffer, _stop.Token);
                if (read == 0)
                {
                    break;
                }

                // Bytes read just as the blackhole began are held back until it ends (and then dropped with the socket).
                await _open.Task;
                await to.GetStream().WriteAsync(buffer.AsMemory(0, read), _stop.Token);
            }
        }
        catch (Exception ex) when (ex is IOException or ObjectDisposedException or OperationCanceledException or SocketException)
        {
        }
        finally
        {
            from.Dispose();
            to.Dispose();
        }
    }

    private sealed record CutPoint(int ChannelOpen, TaskCompletionSource Cut);
}
