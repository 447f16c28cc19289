using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.Stores;

/// <summary>
/// The suppression store in both dialects: keys compared exactly (migration 022: push tokens differing only in case are two
/// entries, whatever the database's collation), a batch of keys looked up in one statement, the first load bounded and newest
/// first, changes streamed with their tombstones.
/// </summary>
public abstract partial class StoreSuite
{
    protected abstract Task<ISuppressionStore> CreateSuppressionStoreAsync();

    [Fact]
    public async Task SuppressionStore_KeysDifferingOnlyInCase_TwoEntriesEachFoundAndRemovedExactly()
    {
        var store = await CreateSuppressionStoreAsync();
        var ct = CancellationToken.None;
        var before = DateTimeOffset.UtcNow.AddMinutes(-5);
        Assert.True(await store.AddAsync("fcm:Token-A", SuppressionReasons.Unregistered, SuppressionReasons.AllScope, null, ct));
        Assert.True(await store.AddAsync("fcm:token-a", SuppressionReasons.Unregistered, SuppressionReasons.AllScope, null, ct));
        Assert.True(await store.AddAsync("user@example.com", SuppressionReasons.Manual, SuppressionReasons.BulkScope, null, ct));

        var found = await store.FindAsync(["fcm:Token-A", "fcm:TOKEN-A", "user@example.com", "nobody@example.com"], ct);
        Assert.Equal(["fcm:Token-A", "user@example.com"], found.Select(e => e.Address).Order(StringComparer.Ordinal));
        Assert.True(found.Single(e => e.Address == "user@example.com").BulkOnly);

        Assert.False(await store.RemoveAsync("fcm:TOKEN-A", null, ct));
        Assert.True(await store.RemoveAsync("fcm:token-a", "device replaced", ct));
        Assert.Empty(await store.FindAsync(["fcm:token-a"], ct));
        Assert.Equal(["fcm:Token-A", "user@example.com"], (await store.LoadAsync(10, ct)).Select(e => e.Address).Order(StringComparer.Ordinal));
        Assert.Equal(["user@example.com"], (await store.LoadAsync(1, ct)).Select(e => e.Address));

        var changes = new List<SuppressionEntry>();
        await foreach (var row in store.ChangesSinceAsync(before, ct))
        {
            changes.Add(row);
        }

        Assert.Equal(3, changes.Count);
        var removed = Assert.Single(changes, c => c.Address == "fcm:token-a");
        Assert.NotNull(removed.RemovedAt);
        Assert.Equal("device replaced", removed.Detail);
    }

    [Fact]
    public async Task SuppressionStore_Search_PrefixTakenLiterally_KeysetPagesInKeyOrder()
    {
        var store = await CreateSuppressionStoreAsync();
        var ct = CancellationToken.None;
        foreach (string key in new[] { "a_b@example.com", "a_c@example.com", "axb@example.com", "a%b@example.com", "a[b]@example.com", "b@example.com" })
        {
            await store.AddAsync(key, SuppressionReasons.Manual, SuppressionReasons.BulkScope, null, ct);
        }

        await store.RemoveAsync("a_c@example.com", null, ct);

        Assert.Equal(["a_b@example.com"], (await store.SearchAsync("a_", null, 10, ct)).Select(e => e.Address));
        Assert.Equal(["a%b@example.com"], (await store.SearchAsync("a%", null, 10, ct)).Select(e => e.Address));
        Assert.Equal(["a[b]@example.com"], (await store.SearchAsync("a[b", null, 10, ct)).Select(e => e.Address));
        var first = await store.SearchAsync("a", null, 2, ct);
        var rest = await store.SearchAsync("a", first[^1].Address, 10, ct);
        Assert.Equal(
            new[] { "a%b@example.com", "a[b]@example.com", "a_b@example.com", "axb@example.com" }.Order(StringComparer.Ordinal),
            first.Concat(rest).Select(e => e.Address));
        Assert.Equal(5, (await store.SearchAsync("", null, 10, ct)).Count);
    }
}
