using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using BenchmarkDotNet.Attributes;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Consumer;
using Notifications.Consumer.Suppression;
using Notifications.Shared.Data;

namespace Notifications.Benchmarks;

/// <summary>
/// The suppression check every notification makes (issue 27, item 10), with a list of 100,000 entries held whole (the default
/// <c>Suppression:CacheEntries</c>): <see cref="DictionaryBefore"/> is the copy as it was before the bound (the whole table in
/// a <see cref="ConcurrentDictionary{TKey, TValue}"/>, address then domain), <see cref="Whole"/> the bounded copy
/// (<see cref="SuppressionList.MatchAsync(string, bool, CancellationToken)"/>), <see cref="OnDemandHeld"/> a list longer than
/// the copy with the answer held. A key not held costs a share of one batched statement instead (docs/suppression.md).
/// The Load benchmarks allocate what the copy of 100,000 entries keeps beyond the key strings themselves (Allocated ≈ its size).
/// </summary>
[MemoryDiagnoser]
public class SuppressionBenchmarks
{
    private const int Entries = 100_000;
    private const string Recipient = "Someone.Else@Example.com";

    private static readonly SuppressionEntry[] Table = Rows(Entries + 1);
    private readonly ServiceProvider _services = new ServiceCollection().AddMetrics().BuildServiceProvider();
    private ConcurrentDictionary<string, bool> _before = null!;
    private SuppressionList _whole = null!;
    private SuppressionList _onDemand = null!;

    [GlobalSetup]
    public async Task Setup()
    {
        _before = LoadBefore();
        _whole = List(LoadWhole());
        var onDemand = new SuppressionCache(Entries);
        onDemand.Load(Table);
        _onDemand = List(onDemand);
        await _onDemand.MatchAsync(Recipient, bulk: false, CancellationToken.None);
    }

    [Benchmark(Baseline = true)]
    public string? DictionaryBefore()
    {
        string address = Recipient.Trim().ToLowerInvariant();
        if (_before.TryGetValue(address, out bool bulkOnly) && !bulkOnly)
        {
            return address;
        }

        int at = address.LastIndexOf('@');
        string domain = address[at..];
        return _before.TryGetValue(domain, out bulkOnly) && !bulkOnly ? domain : null;
    }

    [Benchmark]
    public ValueTask<string?> Whole() => _whole.MatchAsync(Recipient, bulk: false, CancellationToken.None);

    [Benchmark]
    public ValueTask<string?> OnDemandHeld() => _onDemand.MatchAsync(Recipient, bulk: false, CancellationToken.None);

    [Benchmark(OperationsPerInvoke = 1)]
    public int LoadBefore100k() => LoadBefore().Count;

    [Benchmark(OperationsPerInvoke = 1)]
    public int LoadWhole100k()
    {
        using var cache = LoadWhole();
        return cache.Count;
    }

    private static ConcurrentDictionary<string, bool> LoadBefore()
    {
        var dictionary = new ConcurrentDictionary<string, bool>(StringComparer.Ordinal);
        foreach (var row in Table.AsSpan(0, Entries))
        {
            dictionary[row.Address] = row.BulkOnly;
        }

        return dictionary;
    }

    private static SuppressionCache LoadWhole()
    {
        var cache = new SuppressionCache(Entries);
        cache.Load(new ArraySegment<SuppressionEntry>(Table, 0, Entries));
        return cache;
    }

    private static SuppressionEntry[] Rows(int count) =>
        [.. Enumerable.Range(0, count).Select(i => new SuppressionEntry(
            $"user{i}@example{i % 100}.com", SuppressionReasons.Manual, SuppressionReasons.AllScope, DateTimeOffset.UnixEpoch, null, DateTimeOffset.UnixEpoch, null))];

    private SuppressionList List(SuppressionCache cache) =>
        new(new NoTable(), cache, new ConsumerOptions(), new SuppressionMetrics(_services.GetRequiredService<IMeterFactory>(), cache));

    // The benchmarks never reach the table: whole, nothing is looked up; on demand, the one answer is held after the setup's lookup.
    private sealed class NoTable : ISuppressionStore
    {
        public Task<IReadOnlyList<SuppressionEntry>> FindAsync(IReadOnlyCollection<string> keys, CancellationToken cancellationToken) =>
            Task.FromResult<IReadOnlyList<SuppressionEntry>>([]);

        public Task<IReadOnlyList<SuppressionEntry>> LoadAsync(int limit, CancellationToken cancellationToken) => throw new NotSupportedException();

        public IAsyncEnumerable<SuppressionEntry> ChangesSinceAsync(DateTimeOffset since, CancellationToken cancellationToken) => throw new NotSupportedException();

        public Task<bool> AddAsync(string key, string reason, string scope, string? detail, CancellationToken cancellationToken) => throw new NotSupportedException();

        public Task<bool> AddAsync(System.Data.Common.DbConnection connection, System.Data.Common.DbTransaction? transaction, string key, string reason, string scope, string? detail, CancellationToken cancellationToken) =>
            throw new NotSupportedException();

        public Task<bool> RemoveAsync(string key, string? note, CancellationToken cancellationToken) => throw new NotSupportedException();

        public Task<IReadOnlyList<SuppressionEntry>> SearchAsync(string prefix, string? after, int limit, CancellationToken cancellationToken) =>
            throw new NotSupportedException();

        public Task<IReadOnlyList<SuppressionEntry>> ListAsync(string? reason, int limit, CancellationToken cancellationToken) => throw new NotSupportedException();

        public Task RecordSuppressedAsync(IReadOnlyCollection<SentNotification> notifications, CancellationToken cancellationToken) => throw new NotSupportedException();
    }
}
