using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.Stores;

/// <summary>
/// The live channel's pending rows in both dialects, as the consumer and the gateway write them: many rows added in one
/// statement (the consumer's coalesced writes) with the per-subscriber cap applied across the batch, and many acks deleted in
/// one statement (the gateway's), each only by its own subscriber; expired rows reported once by the gateway's sweep.
/// </summary>
public abstract partial class StoreSuite
{
    protected abstract Task<ILivePendingStore> CreateLivePendingStoreAsync();

    [Fact]
    public async Task LivePendingStore_OneBatchPastTheCap_TheSubscriberKeepsItsNewestAndTheOthersAreUntouched()
    {
        var store = await CreateLivePendingStoreAsync();
        var ct = CancellationToken.None;
        await store.AddAsync([Row(1, "ana")], cap: 3, ct);

        var capped = await store.AddAsync([Row(2, "ana"), Row(3, "bo"), Row(4, "ana"), Row(5, "ana"), Row(6, "ana")], cap: 3, ct);

        Assert.Equal([new LiveCapped("ana", 2)], capped);
        Assert.Equal([4L, 5, 6], (await store.PendingAsync("ana", 10, ct)).Select(r => r.Id));
        Assert.Equal([3L], (await store.PendingAsync("bo", 10, ct)).Select(r => r.Id));
    }

    [Fact]
    public async Task LivePendingStore_ARowAddedAgain_StaysAsItWasFirstWritten()
    {
        var store = await CreateLivePendingStoreAsync();
        var ct = CancellationToken.None;
        await store.AddAsync([Row(7, "ana") with { Subject = "first", Data = """{"k":1}""" }], cap: 10, ct);

        Assert.Empty(await store.AddAsync([Row(7, "ana") with { Subject = "again" }, Row(8, "ana")], cap: 10, ct));

        var pending = await store.PendingAsync("ana", 10, ct);
        Assert.Equal([7L, 8], pending.Select(r => r.Id));
        Assert.Equal("first", pending[0].Subject);
        Assert.Equal("""{"k":1}""", pending[0].Data);
        Assert.Null(pending[1].Data);
    }

    [Fact]
    public async Task LivePendingStore_ManyAcksInOneStatement_OnlyEachSubscribersOwnRowsGo()
    {
        var store = await CreateLivePendingStoreAsync();
        var ct = CancellationToken.None;
        await store.AddAsync([Row(11, "ana"), Row(12, "ana"), Row(13, "bo")], cap: 10, ct);

        var gone = await store.AckAsync(
            [new LiveAck("ana", 11), new LiveAck("ana", 13), new LiveAck("bo", 13), new LiveAck("ana", 99), new LiveAck("bo", 13)], withEvents: false, ct);

        Assert.Equal([new LiveAck("ana", 11), new LiveAck("bo", 13)], gone.OrderBy(a => a.Id));
        Assert.Equal([12L], (await store.PendingAsync("ana", 10, ct)).Select(r => r.Id));
        Assert.Empty(await store.PendingAsync("bo", 10, ct));
        Assert.Empty(await store.AckAsync([new LiveAck("ana", 11)], withEvents: false, ct));
    }

    [Fact]
    public async Task LivePendingStore_ExpiredRowsReported_EachOnce_OnlyThoseExpiredSinceTheBound()
    {
        var store = await CreateLivePendingStoreAsync();
        var ct = CancellationToken.None;
        var now = DateTimeOffset.UtcNow;
        await store.AddAsync(
            [Row(31, "ana") with { ExpiresAt = now.AddHours(-3) }, Row(32, "ana") with { ExpiresAt = now.AddMinutes(-5) },
             Row(33, "bo") with { ExpiresAt = now.AddMinutes(-1) }, Row(34, "ana") with { ExpiresAt = now.AddHours(1) }, Row(35, "bo")],
            cap: 10, ct);

        int first = await store.ReportExpiredAsync(now.AddHours(-1), max: 1, withEvents: false, ct);
        int rest = await store.ReportExpiredAsync(now.AddHours(-1), max: 10, withEvents: false, ct);
        int again = await store.ReportExpiredAsync(now.AddHours(-1), max: 10, withEvents: false, ct);
        int older = await store.ReportExpiredAsync(DateTimeOffset.MinValue, max: 10, withEvents: false, ct);

        // 32 and 33 (a batch of one, then the other), none again; 31 only when the bound reaches it; 34 and 35 have not expired.
        Assert.Equal((1, 1, 0, 1), (first, rest, again, older));
    }

    private static LivePending Row(long id, string subscriber) =>
        new(id, subscriber, $"Subject {id}", $"Body {id}", null, DateTimeOffset.UtcNow.AddHours(1), AtMostOnce: false);
}
