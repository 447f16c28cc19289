using System.Data.Common;
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
    private readonly SentIds _sent = new(4_096);
    private readonly Lock _gate = new();
    // Cancelled when the client's request is aborted, or to cut the client off.
    private readonly CancellationTokenSource _cut = new();
    // What waits to go out (under _gate), null while nothing does. No writer waits on an idle connection: a frame offered
    // while none is sending starts one (a pump), which ends when the queue is empty; the first pump replays the pending
    // rows first, and what was routed meanwhile waits in the queue behind them. Memory per idle connection: docs/live.md.
    private Queue<LiveFrame>? _queue;
    private Task? _pump;
    private bool _pumping;
    // No frame is taken any more (closing, or the connection over); _ended: no pump starts any more.
    private bool _completed;
    private bool _ended;
    private LiveClose? _closing;
    private bool _closeSent;

    public LiveSession(ILiveTransport transport, string subscriber, LivePendingRows pending, Presence presence, GatewayOptions options, ILogger logger)
    {
        _transport = transport;
        _subscriber = subscriber;
        _pending = pending;
        _presence = presence;
        _options = options;
        _logger = logger;
    }

    public async Task RunAsync(CancellationToken requestAborted, CancellationToken stopping)
    {
        var aborted = requestAborted.UnsafeRegister(static s => ((LiveSession)s!).Cut(), this);
        var token = _cut.Token;
        try
        {
            await _presence.JoinAsync(_subscriber, this, token);
            try
            {
                lock (_gate)
                {
                    _pumping = true;   // what is offered meanwhile waits for the replay
                }

                var first = PumpAsync(replayFirst: true);
                lock (_gate)
                {
                    if (_pumping && _pump is null)
                    {
                        _pump = first;
                    }
                }

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
                Task? pump;
                lock (_gate)
                {
                    _completed = true;
                    _ended = true;
                    pump = _pump;
                }

                if (pump is not null)
                {
                    await pump;
                }
            }
        }
        finally
        {
            await aborted.DisposeAsync();
            _cut.Dispose();
        }
    }

    /// <summary>A notification routed to this node for the subscriber: sent after the pending rows, unless sent already.</summary>
    public void Offer(LiveFrame frame)
    {
        lock (_gate)
        {
            if (_completed)
            {
                return;   // closing: it stays pending
            }

            if (_queue is null || _queue.Count < _options.SendBuffer)
            {
                (_queue ??= new Queue<LiveFrame>()).Enqueue(frame);
                StartPump();
                return;
            }
        }

        LogNotReading(_logger, _subscriber, _options.SendBuffer);
        Close(LiveClose.NotReading);
    }

    /// <summary>Reads the pending rows again and sends those not sent on this connection yet.</summary>
    public void RequestReplay()
    {
        lock (_gate)
        {
            if (!_completed)
            {
                (_queue ??= new Queue<LiveFrame>()).Enqueue(Replay);
                StartPump();
            }
        }
    }

    // Sends what is queued, then the close frame; the client is cut off if it has not gone CloseGrace later.
    private void Close(LiveClose close)
    {
        lock (_gate)
        {
            _closing ??= close;
            _completed = true;
            StartPump();
        }

        try
        {
            _cut.CancelAfter(CloseGrace);
        }
        catch (ObjectDisposedException)
        {
            // The connection ended meanwhile.
        }
    }

    private void Cut()
    {
        try
        {
            _cut.Cancel();
        }
        catch (ObjectDisposedException)
        {
            // The connection ended meanwhile.
        }
    }

    // Under _gate: a pump unless one runs (or the connection is over).
    private void StartPump()
    {
        if (!_pumping && !_ended)
        {
            _pumping = true;
            _pump = PumpAsync(replayFirst: false);
        }
    }

    // Under _gate: the next frame to send, or the close frame's turn (Close set); false when there is none, and the pump ends.
    private bool TryTakeNext(out LiveFrame frame, out LiveClose? close)
    {
        frame = default;
        close = null;
        if (_queue is { Count: > 0 } queue)
        {
            frame = queue.Dequeue();
            return true;
        }

        _queue = null;
        if (_completed && _closing is { } closing && !_closeSent)
        {
            _closeSent = true;
            close = closing;
            return true;
        }

        _pumping = false;
        _pump = null;
        return false;
    }

    private async Task PumpAsync(bool replayFirst)
    {
        var token = _cut.Token;
        try
        {
            if (replayFirst)
            {
                await ReplayAsync(token);
            }
            else
            {
                await Task.Yield();   // not on the offering thread (the broker's consumer): it goes on with the next delivery
            }

            while (true)
            {
                LiveFrame frame;
                LiveClose? close;
                lock (_gate)
                {
                    if (!TryTakeNext(out frame, out close))
                    {
                        return;
                    }
                }

                if (close is { } closing)
                {
                    await _transport.CloseAsync(closing, token);
                }
                else
                {
                    await (frame.Id == Replay.Id ? ReplayAsync(token) : SendOnceAsync(frame, token));
                }
            }
        }
        catch (Exception ex) when (_transport.IsGone(ex))
        {
            // The client went away while frames were going out: they stay pending. Nothing more is sent.
            StopPumping();
        }
        catch (Exception ex) when (!_transport.IsGone(ex))
        {
            // The database (a mark, the pending rows) failed: the client reconnects, its notifications stay pending.
            StopPumping();
            LogSendFailed(_logger, _subscriber, ex.Message);
            try
            {
                await _transport.CloseAsync(LiveClose.Failed, token);
                await _cut.CancelAsync();
            }
            catch (Exception gone) when (_transport.IsGone(gone))
            {
                // Gone meanwhile.
            }
        }
    }

    // After a send failed: no frame is taken and no pump starts any more on this connection.
    private void StopPumping()
    {
        lock (_gate)
        {
            _completed = true;
            _closeSent = true;
            _queue = null;
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
