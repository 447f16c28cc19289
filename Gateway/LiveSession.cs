using System.Data.Common;
using System.Threading.Channels;
using Microsoft.Extensions.Logging;
using Notifications.Gateway.Transports;
using Notifications.Shared.Contract;

namespace Notifications.Gateway;

/// <summary>
/// One client's connection, whichever its transport (WebSocket or a gRPC stream, <see cref="ILiveTransport"/>; docs/live.md).
/// Its subscriber joins this node's <see cref="Presence"/> first (the node's queue is bound under it), then the client
/// receives its pending, unexpired notifications in id order, then the live ones routed here meanwhile and after, each once on
/// this connection. A notification marked at most once is marked sent in <c>live_pending</c> before it goes out and not sent
/// when it was marked before (by this node or another). The client acks by id, deleting the row; an ack for an id that is not
/// the subscriber's pending one is ignored. Anything else from the client closes the connection (malformed); the gateway goes
/// on. A client that does not read what is sent to it (<see cref="GatewayOptions.SendBuffer"/> notifications waiting) is
/// closed and cut off a little later if it does not answer: nothing is lost, its notifications stay pending.
/// </summary>
internal sealed partial class LiveSession
{
    private static readonly TimeSpan CloseGrace = TimeSpan.FromSeconds(5);
    // A request to read the pending rows again (after the node's broker connection came back): ids are positive.
    private static readonly LiveFrame Replay = new(0, ReadOnlyMemory<byte>.Empty, false);

    private readonly ILiveTransport _transport;
    private readonly string _subscriber;
    private readonly LivePendingRows _pending;
    private readonly Presence _presence;
    private readonly GatewayOptions _options;
    private readonly ILogger _logger;
    private readonly Channel<LiveFrame> _outbound;
    private readonly SentIds _sent = new(4_096);
    private readonly Lock _gate = new();
    private readonly CancellationTokenSource _cut = new();
    // Routed frames that arrive before the pending rows were sent: sent after them, in that order.
    private List<LiveFrame>? _held = [];
    private LiveClose? _closing;

    public LiveSession(ILiveTransport transport, string subscriber, LivePendingRows pending, Presence presence, GatewayOptions options, ILogger logger)
    {
        _transport = transport;
        _subscriber = subscriber;
        _pending = pending;
        _presence = presence;
        _options = options;
        _logger = logger;
        _outbound = Channel.CreateBounded<LiveFrame>(new BoundedChannelOptions(options.SendBuffer)
        {
            SingleReader = true,
            FullMode = BoundedChannelFullMode.Wait,
        });
    }

    public async Task RunAsync(CancellationToken requestAborted, CancellationToken stopping)
    {
        using var linked = CancellationTokenSource.CreateLinkedTokenSource(requestAborted, _cut.Token);
        var token = linked.Token;
        await _presence.JoinAsync(_subscriber, this, token);
        Task writer = Task.CompletedTask;
        try
        {
            writer = WriteAsync(token);
            using var onStop = stopping.Register(() => Close(LiveClose.Stopping));
            await ReceiveAsync(token);
        }
        catch (Exception ex) when (_transport.IsGone(ex))
        {
            // The client went away, or was cut off: its notifications stay pending.
        }
        finally
        {
            await _presence.LeaveAsync(_subscriber, this);
            _outbound.Writer.TryComplete();
            await ObserveAsync(writer);
            _cut.Dispose();
        }
    }

    /// <summary>A notification routed to this node for the subscriber: sent after the pending rows, unless sent already.</summary>
    public void Offer(LiveFrame frame)
    {
        lock (_gate)
        {
            if (_held is not null)
            {
                if (_held.Count < _options.SendBuffer)
                {
                    _held.Add(frame);
                    return;
                }
            }
            else if (_outbound.Writer.TryWrite(frame))
            {
                return;
            }
        }

        LogNotReading(_logger, _subscriber, _options.SendBuffer);
        Close(LiveClose.NotReading);
    }

    /// <summary>Reads the pending rows again and sends those not sent on this connection yet.</summary>
    public void RequestReplay() => _outbound.Writer.TryWrite(Replay);

    // Sends what is queued, then the close frame; the client is cut off if it has not gone CloseGrace later.
    private void Close(LiveClose close)
    {
        lock (_gate)
        {
            _closing ??= close;
        }

        _outbound.Writer.TryComplete();
        try
        {
            _cut.CancelAfter(CloseGrace);
        }
        catch (ObjectDisposedException)
        {
            // The connection ended meanwhile.
        }
    }

    private async Task WriteAsync(CancellationToken cancellationToken)
    {
        try
        {
            await ReplayAsync(cancellationToken);
            List<LiveFrame> held;
            lock (_gate)
            {
                held = _held!;
                _held = null;
            }

            foreach (var frame in held)
            {
                await SendOnceAsync(frame, cancellationToken);
            }

            await foreach (var frame in _outbound.Reader.ReadAllAsync(cancellationToken))
            {
                await (frame.Id == Replay.Id ? ReplayAsync(cancellationToken) : SendOnceAsync(frame, cancellationToken));
            }

            if (_closing is { } closing)
            {
                await _transport.CloseAsync(closing, cancellationToken);
            }
        }
        catch (Exception ex) when (!_transport.IsGone(ex))
        {
            // The database (a mark, the pending rows) failed: the client reconnects, its notifications stay pending.
            LogSendFailed(_logger, _subscriber, ex.Message);
            await _transport.CloseAsync(LiveClose.Failed, cancellationToken);
            await _cut.CancelAsync();
        }
    }

    // The subscriber's pending rows in id order, those marked at most once marked sent first (one statement).
    private async Task ReplayAsync(CancellationToken cancellationToken)
    {
        var rows = await _pending.PendingAsync(_subscriber, _options.MaxPending, cancellationToken);
        var once = rows.Where(r => r.AtMostOnce).Select(r => r.Id).ToList();
        var marked = once.Count == 0 ? [] : (await _pending.MarkSentAsync(once, cancellationToken)).ToHashSet();
        foreach (var row in rows)
        {
            if ((!row.AtMostOnce || marked.Contains(row.Id)) && _sent.Add(row.Id))
            {
                await _transport.SendAsync(new LiveFrame(row.Id, LiveFrames.Notification(row.Id, row.Subject, row.Body, row.Data), false), cancellationToken);
            }
        }
    }

    private async Task SendOnceAsync(LiveFrame frame, CancellationToken cancellationToken)
    {
        if (_sent.Contains(frame.Id))
        {
            return;
        }

        if (frame.AtMostOnce && (await _pending.MarkSentAsync([frame.Id], cancellationToken)).Count == 0)
        {
            return;   // another connection or node sent it
        }

        _sent.Add(frame.Id);
        await _transport.SendAsync(frame, cancellationToken);
    }

    private async Task ReceiveAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var input = await _transport.ReceiveAsync(cancellationToken);
            switch (input.Kind)
            {
                case LiveInputKind.End:
                    Close(LiveClose.Normal);
                    return;
                case LiveInputKind.Malformed:
                    LogMalformedFrame(_logger, _subscriber);
                    Close(LiveClose.Malformed);
                    return;
                default:
                    bool acked;
                    try
                    {
                        acked = await _pending.AckAsync(_subscriber, input.Id, cancellationToken);
                    }
                    catch (DbException ex)
                    {
                        // The database refused or is gone: the client reconnects (1011), the row stays pending.
                        LogAckFailed(_logger, _subscriber, input.Id, ex.Message);
                        Close(LiveClose.Failed);
                        return;
                    }

                    if (!acked)
                    {
                        LogAckIgnored(_logger, _subscriber, input.Id);
                    }

                    break;
            }
        }
    }

    private async Task ObserveAsync(Task writer)
    {
        try
        {
            await writer;
        }
        catch (Exception ex) when (_transport.IsGone(ex))
        {
            // The client went away while frames were going out: they stay pending.
        }
    }

    [LoggerMessage(EventId = 7514, Level = LogLevel.Warning, Message = "Live connection of {Subscriber}: the ack of {Id} failed ({Reason}); closed, the notification stays pending")]
    private static partial void LogAckFailed(ILogger logger, string subscriber, long id, string reason);

    [LoggerMessage(EventId = 7511, Level = LogLevel.Debug, Message = "Live connection of {Subscriber}: ack of {Id}, not one of its pending notifications; ignored")]
    private static partial void LogAckIgnored(ILogger logger, string subscriber, long id);

    [LoggerMessage(EventId = 7510, Level = LogLevel.Warning, Message = "Live connection of {Subscriber}: a message that is not an ack; closed")]
    private static partial void LogMalformedFrame(ILogger logger, string subscriber);

    [LoggerMessage(EventId = 7512, Level = LogLevel.Warning, Message = "Live connection of {Subscriber}: {Frames} notifications waiting unread; closed, they stay pending")]
    private static partial void LogNotReading(ILogger logger, string subscriber, int frames);

    [LoggerMessage(EventId = 7513, Level = LogLevel.Warning, Message = "Live connection of {Subscriber}: sending failed ({Reason}); closed, its notifications stay pending")]
    private static partial void LogSendFailed(ILogger logger, string subscriber, string reason);
}
