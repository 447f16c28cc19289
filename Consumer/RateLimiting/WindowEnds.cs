using System.Threading.Channels;
using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// The ends of sends in the rate limits' send windows (<see cref="FleetRateLimiter.LeaveWindow"/>), recorded off the handlers'
/// path: a handler hands its send's entry over and takes its next message, and one loop records every end handed over
/// meanwhile in one statement. An end recorded late only keeps its send in the window a little longer (the window is
/// stricter, never looser); one that cannot be recorded counts as in flight until the send timeout after it began.
/// </summary>
internal sealed partial class WindowEnds : IAsyncDisposable
{
    private static readonly TimeSpan StatementTimeout = TimeSpan.FromSeconds(5);
    private readonly Channel<long> _ended = Channel.CreateUnbounded<long>(new UnboundedChannelOptions { SingleReader = true });
    private readonly IRateLimitStore _store;
    private readonly TimeSpan _endsWithin;
    private readonly ILogger _logger;
    private readonly Lazy<Task> _loop;

    public WindowEnds(IRateLimitStore store, TimeSpan endsWithin, ILogger logger)
    {
        _store = store;
        _endsWithin = endsWithin;
        _logger = logger;
        _loop = new(() => Task.Run(RecordAsync));
    }

    /// <summary>The send of window entry <paramref name="id"/> ended: recorded as soon as the loop comes to it.</summary>
    public void Add(long id)
    {
        if (_ended.Writer.TryWrite(id))
        {
            _ = _loop.Value;
        }
    }

    /// <summary>Records what was handed over (a few seconds at most), then stops.</summary>
    public async ValueTask DisposeAsync()
    {
        _ended.Writer.TryComplete();
        if (_loop.IsValueCreated)
        {
            await _loop.Value.WaitAsync(StatementTimeout).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }
    }

    private async Task RecordAsync()
    {
        var batch = new List<long>();
        while (await _ended.Reader.WaitToReadAsync())
        {
            while (_ended.Reader.TryRead(out long id))
            {
                batch.Add(id);
            }

            try
            {
                using var timeout = new CancellationTokenSource(StatementTimeout);
                await _store.LeaveWindowAsync(batch, timeout.Token);
            }
            catch (Exception ex)
            {
                LogNotRecorded(_logger, batch.Count, _endsWithin, ex);
            }

            batch.Clear();
        }
    }

    [LoggerMessage(EventId = 4115, Level = LogLevel.Warning, Message = "Rate limit windows: the ends of {Count} sends were not recorded; each counts as in flight for up to {EndsWithin} after it began")]
    private static partial void LogNotRecorded(ILogger logger, int count, TimeSpan endsWithin, Exception exception);
}
