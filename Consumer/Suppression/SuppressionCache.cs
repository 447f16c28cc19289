using Microsoft.Extensions.Caching.Memory;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Suppression;

/// <summary>
/// The suppression keys a consumer holds in memory, never more than <see cref="Capacity"/> (<c>Suppression:CacheEntries</c>):
/// <list type="bullet">
/// <item><b>Whole</b> while the list fits: every entry in force is here, and a key that is not is not suppressed — a lookup
/// costs no round trip.</item>
/// <item><b>On demand</b> once it does not (at the first load, or when the list grows past the bound): a key that is not here
/// is looked up in the table (<see cref="SuppressionList"/> batches the lookups) and its answer, listed or not, kept here;
/// the least recently used answers make room for new ones (<see cref="MemoryCache"/> with a size limit). It stays so until
/// the consumer restarts.</item>
/// </list>
/// <see cref="SuppressionRefreshService"/> keeps it in step with the table: whole, it applies each changed row; on demand, it
/// forgets the key of each changed row, and the next notification to it reads the row again. This process's own additions
/// go in at once.
/// </summary>
internal sealed class SuppressionCache : IDisposable
{
    private static readonly MemoryCacheEntryOptions OneUnit = new() { Size = 1 };
    private readonly MemoryCache _keys;
    private readonly Lock _writing = new();
    private readonly TaskCompletionSource _loaded = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private volatile bool _whole;

    public SuppressionCache(int capacity)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(capacity, 1);
        Capacity = capacity;
        // Over the limit, a new answer is not kept and the least recently used 5 % are dropped (in the background).
        _keys = new MemoryCache(new MemoryCacheOptions { SizeLimit = capacity });
    }

    /// <summary>The most keys held (<c>Suppression:CacheEntries</c>).</summary>
    public int Capacity { get; }

    /// <summary>The newest <c>changed_at</c> seen (the refresh's watermark), or null before the first load.</summary>
    public DateTimeOffset? Watermark { get; private set; }

    /// <summary>The keys held: the entries in force while whole; answers looked up (listed or not) on demand.</summary>
    public int Count => _keys.Count;

    /// <summary>Whether every entry in force is held (a key not held is not suppressed).</summary>
    public bool IsWhole => _whole;

    public bool IsLoaded => _loaded.Task.IsCompleted;

    /// <summary>Waits for the first load: until then nobody can say an address is not suppressed.</summary>
    public Task WaitLoadedAsync(CancellationToken cancellationToken) => _loaded.Task.WaitAsync(cancellationToken);

    /// <summary>
    /// Takes the first load: the entries in force, the most recently changed first, at most <see cref="Capacity"/> + 1 of them.
    /// All of them fit: held whole; one more: on demand, nothing held yet.
    /// </summary>
    public void Load(IReadOnlyList<SuppressionEntry> newestFirst)
    {
        ArgumentNullException.ThrowIfNull(newestFirst);
        _whole = newestFirst.Count <= Capacity;
        if (_whole)
        {
            foreach (var row in newestFirst)
            {
                _keys.Set(row.Address, SuppressionMark.Of(row), OneUnit);
            }
        }

        if (newestFirst.Count > 0)
        {
            Watermark = newestFirst[0].ChangedAt;
        }

        _loaded.TrySetResult();
    }

    /// <summary>Applies a row a refresh read (added, changed or removed since the watermark).</summary>
    public void Apply(SuppressionEntry row)
    {
        ArgumentNullException.ThrowIfNull(row);
        Watermark = Watermark is { } seen && seen >= row.ChangedAt ? seen : row.ChangedAt;
        lock (_writing)
        {
            if (!_whole || row.RemovedAt is not null)
            {
                // On demand the row is read again when a notification asks for it; whole, a removed key is simply not held.
                _keys.Remove(row.Address);
                return;
            }

            MakeRoom(row.Address);
            _keys.Set(row.Address, SuppressionMark.Of(row), OneUnit);
        }
    }

    /// <summary>Records an entry this process just wrote, before the next refresh reads it back (a wider scope wins).</summary>
    public void Add(string key, bool bulkOnly)
    {
        lock (_writing)
        {
            var mark = _keys.TryGetValue(key, out SuppressionMark? held) && held!.Listed
                ? SuppressionMark.Of(bulkOnly && held.BulkOnly)
                : SuppressionMark.Of(bulkOnly);
            MakeRoom(key);
            _keys.Set(key, mark, OneUnit);
        }
    }

    /// <summary>What is known of <paramref name="key"/>: its mark, <see cref="SuppressionMark.NotListed"/>, or null (look it up).</summary>
    public SuppressionMark? Find(string key) =>
        _keys.TryGetValue(key, out SuppressionMark? mark) ? mark : _whole ? SuppressionMark.NotListed : null;

    /// <summary>Keeps what a lookup in the table answered for <paramref name="key"/>, unless a newer word is held already.</summary>
    public void Remember(string key, SuppressionMark mark)
    {
        lock (_writing)
        {
            if (!_keys.TryGetValue(key, out _))
            {
                _keys.Set(key, mark, OneUnit);
            }
        }
    }

    public void Dispose() => _keys.Dispose();

    // Whole, a new key that would not fit ends being whole: from now on a key not held is looked up, never assumed unlisted.
    private void MakeRoom(string key)
    {
        if (_whole && _keys.Count >= Capacity && !_keys.TryGetValue(key, out _))
        {
            _whole = false;
        }
    }
}
