using System.Runtime.CompilerServices;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Suppression;

/// <summary>A suppression table in memory that counts the lookup statements (<see cref="ISuppressionStore.FindAsync"/>).</summary>
internal sealed class FakeSuppressionStore : ISuppressionStore
{
    private readonly Dictionary<string, SuppressionEntry> _rows = new(StringComparer.Ordinal);
    private int _finds;

    public int Finds => Volatile.Read(ref _finds);

    public void Add(SuppressionEntry row)
    {
        lock (_rows)
        {
            _rows[row.Address] = row;
        }
    }

    public Task<IReadOnlyList<SuppressionEntry>> LoadAsync(int limit, CancellationToken cancellationToken)
    {
        lock (_rows)
        {
            return Task.FromResult<IReadOnlyList<SuppressionEntry>>(
                [.. _rows.Values.Where(r => r.RemovedAt is null).OrderByDescending(r => r.ChangedAt).Take(limit)]);
        }
    }

    public async Task<IReadOnlyList<SuppressionEntry>> FindAsync(IReadOnlyCollection<string> keys, CancellationToken cancellationToken)
    {
        Interlocked.Increment(ref _finds);
        await Task.Yield();
        lock (_rows)
        {
            return [.. keys.Select(k => _rows.GetValueOrDefault(k)).OfType<SuppressionEntry>().Where(r => r.RemovedAt is null)];
        }
    }

    public async IAsyncEnumerable<SuppressionEntry> ChangesSinceAsync(DateTimeOffset since, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        await Task.Yield();
        SuppressionEntry[] changed;
        lock (_rows)
        {
            changed = [.. _rows.Values.Where(r => r.ChangedAt >= since)];
        }

        foreach (var row in changed)
        {
            yield return row;
        }
    }

    public Task<bool> AddAsync(string key, string reason, string scope, string? detail, CancellationToken cancellationToken) => throw new NotSupportedException();

    public Task<bool> AddAsync(System.Data.Common.DbConnection connection, System.Data.Common.DbTransaction? transaction, string key, string reason, string scope, string? detail, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    public Task<bool> RemoveAsync(string key, string? note, CancellationToken cancellationToken) => throw new NotSupportedException();

    public Task<IReadOnlyList<SuppressionEntry>> SearchAsync(string prefix, string? after, int limit, CancellationToken cancellationToken) =>
        throw new NotSupportedException();

    public Task<IReadOnlyList<SuppressionEntry>> ListAsync(string? reason, int limit, CancellationToken cancellationToken) => throw new NotSupportedException();

    public Task RecordSuppressedAsync(IReadOnlyCollection<SentNotification> notifications, CancellationToken cancellationToken) => throw new NotSupportedException();
}
