using System.Diagnostics;

namespace Notifications.Harness.Live;

/// <summary>
/// Client ack -> row gone, sampled: the acks handed here (while <see cref="Enabled"/>) are followed in the database, all
/// outstanding ones in one query about every millisecond, until their pending row is gone. A row's time is the ack's send to
/// the return of the first query that no longer saw it: an upper bound, by up to one query's round trip and the pause.
/// </summary>
internal sealed class LiveAckProbe(LiveRows rows) : IAsyncDisposable
{
    private static readonly TimeSpan Pause = TimeSpan.FromMilliseconds(1);
    private static readonly TimeSpan GiveUp = TimeSpan.FromSeconds(10);

    private readonly Dictionary<long, long> _outstanding = [];
    private readonly List<double> _gone = [];
    private readonly CancellationTokenSource _stop = new();
    private Task _loop = Task.CompletedTask;
    private long _notGone;
    private long _failures;

    public bool Enabled { get; set; }

    /// <summary>Acks whose row was still there <see cref="GiveUp"/> after the ack.</summary>
    public long NotGone
    {
        get
        {
            lock (_outstanding)
            {
                return _notGone;
            }
        }
    }

    /// <summary>Queries that failed (each followed by a pause).</summary>
    public long Failures => Interlocked.Read(ref _failures);

    public void Start() => _loop = RunAsync(_stop.Token);

    public void Acked(long id, long at)
    {
        if (!Enabled)
        {
            return;
        }

        lock (_outstanding)
        {
            _outstanding.TryAdd(id, at);
        }
    }

    /// <summary>Ack -> row gone of every sampled ack so far, ms, ascending.</summary>
    public List<double> GoneMs()
    {
        lock (_outstanding)
        {
            return _gone.Order().ToList();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        try
        {
            await _loop;
        }
        catch (OperationCanceledException)
        {
            // Stopped between two queries.
        }

        _stop.Dispose();
    }

    private async Task RunAsync(CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            await Task.Delay(Pause, cancellationToken);
            long[] ids;
            lock (_outstanding)
            {
                ids = [.. _outstanding.Keys];
            }

            if (ids.Length == 0)
            {
                continue;
            }

            try
            {
                var pending = await rows.PendingAsync(ids);
                Settle(ids, pending, Stopwatch.GetTimestamp());
            }
            catch (Npgsql.NpgsqlException ex)
            {
                // A probe that cannot ask (the server's connections all taken) skips a beat; the samples wait, their times grow.
                Interlocked.Increment(ref _failures);
                Console.Error.WriteLine($"  ack probe: {ex.Message}");
                await Task.Delay(TimeSpan.FromMilliseconds(100), cancellationToken);
            }
        }
    }

    private void Settle(long[] ids, HashSet<long> pending, long now)
    {
        lock (_outstanding)
        {
            foreach (long id in ids)
            {
                double ms = Stopwatch.GetElapsedTime(_outstanding[id], now).TotalMilliseconds;
                bool gone = !pending.Contains(id);
                if (!gone && ms < GiveUp.TotalMilliseconds)
                {
                    continue;
                }

                if (gone)
                {
                    _gone.Add(ms);
                }
                else
                {
                    _notGone++;
                }

                _outstanding.Remove(id);
            }
        }
    }
}
