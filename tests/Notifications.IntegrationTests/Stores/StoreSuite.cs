using Notifications.Client;
using Notifications.Shared.Data;
using NotificationPriority = Notifications.Client.NotificationPriority;

namespace Notifications.IntegrationTests.Stores;

/// <summary>
/// The store contract, one suite for both SQL dialects: each subclass supplies real stores on a real
/// server and an empty schema.
/// </summary>
public abstract partial class StoreSuite
{
    protected abstract Task<(IOutboxStore Outbox, IDeliveryLogStore Log)> CreateStoresAsync();

    protected abstract Task<IReadOnlyList<long>> InsertAsync(int count);

    /// <summary>A business app's view: an open connection and the outbox's schema, for <see cref="NotificationOutbox"/>.</summary>
    protected abstract Task<(System.Data.Common.DbConnection Connection, string Schema)> OpenAppConnectionAsync();

    [Fact]
    public async Task ClaimAsync_RowEnqueuedWithTraceParent_CarriesItAndOthersNull()
    {
        var (outbox, _) = await CreateStoresAsync();
        const string traceParent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        var (connection, schema) = await OpenAppConnectionAsync();
        await using (connection)
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            await NotificationOutbox.EnqueueAsync(transaction, new NewNotification("traced@example.com", "Traced", "body") { TraceParent = traceParent }, schema);
            await transaction.CommitAsync();
        }

        await InsertAsync(1);

        await using var claim = await outbox.ClaimAsync(10, CancellationToken.None);
        Assert.Equal([traceParent, null], claim.Rows.Select(r => r.TraceParent));
    }

    [Fact]
    public async Task ClaimAsync_MixedPriorities_UrgentThenNormalThenBulkAndEachLaneOnlyItsOwn()
    {
        var (outbox, _) = await CreateStoresAsync();
        long bulk1 = await EnqueueAsync(NotificationPriority.Bulk, notBefore: null);
        long normal1 = await EnqueueAsync(NotificationPriority.Normal, notBefore: null);
        long urgent = await EnqueueAsync(NotificationPriority.Urgent, notBefore: null);
        long bulk2 = await EnqueueAsync(NotificationPriority.Bulk, notBefore: null);
        long normal2 = await EnqueueAsync(NotificationPriority.Normal, notBefore: null);

        await using (var standard = await outbox.ClaimAsync(OutboxLanes.Standard, 3, CancellationToken.None))
        {
            Assert.Equal([normal1, normal2, bulk1], standard.Rows.Select(r => r.Id));
            Assert.Equal(["normal", "normal", "bulk"], standard.Rows.Select(r => r.Priority));
        }

        await using (var urgentLane = await outbox.ClaimAsync(OutboxLanes.Urgent, 10, CancellationToken.None))
        {
            Assert.Equal([urgent], urgentLane.Rows.Select(r => r.Id));
            Assert.True(urgentLane.Rows[0].IsUrgent);
        }

        await using var all = await outbox.ClaimAsync(10, CancellationToken.None);
        Assert.Equal([urgent, normal1, normal2, bulk1, bulk2], all.Rows.Select(r => r.Id));
    }

    [Fact]
    public async Task ClaimAsync_NotBefore_DueRowsFirstAndLaterRowsNeverTaken()
    {
        var (outbox, _) = await CreateStoresAsync();
        long now = await EnqueueAsync(NotificationPriority.Normal, notBefore: null);
        long due = await EnqueueAsync(NotificationPriority.Normal, DateTimeOffset.UtcNow.AddMinutes(-1));
        await EnqueueAsync(NotificationPriority.Normal, DateTimeOffset.UtcNow.AddDays(1));
        await EnqueueAsync(NotificationPriority.Urgent, DateTimeOffset.UtcNow.AddDays(1));

        await using (var claim = await outbox.ClaimAsync(10, CancellationToken.None))
        {
            Assert.Equal([due, now], claim.Rows.Select(r => r.Id));
            await claim.CommitAsync(CancellationToken.None);
        }

        Assert.Equal(2, await outbox.CountAsync(CancellationToken.None));
        await using var again = await outbox.ClaimAsync(10, CancellationToken.None);
        Assert.Empty(again.Rows);
    }

    private async Task<long> EnqueueAsync(NotificationPriority priority, DateTimeOffset? notBefore)
    {
        var (connection, schema) = await OpenAppConnectionAsync();
        await using (connection)
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            long id = await NotificationOutbox.EnqueueAsync(
                transaction, new NewNotification("lane@example.com", "Lane", "body") { Priority = priority, NotBefore = notBefore }, schema);
            await transaction.CommitAsync();
            return id;
        }
    }

    [Fact]
    public async Task ClaimAsync_TwoClaimsAtOnce_TakeDisjointRowsOldestFirst()
    {
        var (outbox, _) = await CreateStoresAsync();
        var ids = await InsertAsync(10);

        await using var first = await outbox.ClaimAsync(4, CancellationToken.None);
        await using var second = await outbox.ClaimAsync(4, CancellationToken.None);

        Assert.Equal(ids.Take(4), first.Rows.Select(r => r.Id));
        Assert.Equal(ids.Skip(4).Take(4), second.Rows.Select(r => r.Id));
    }

    [Fact]
    public async Task ClaimAsync_DisposedWithoutCommit_RowsComeBack()
    {
        var (outbox, _) = await CreateStoresAsync();
        var ids = await InsertAsync(5);

        await using (var claim = await outbox.ClaimAsync(100, CancellationToken.None))
        {
            Assert.Equal(5, claim.Rows.Count);
        }

        Assert.Equal(5, await outbox.CountAsync(CancellationToken.None));
        await using var again = await outbox.ClaimAsync(100, CancellationToken.None);
        Assert.Equal(ids, again.Rows.Select(r => r.Id));
    }

    [Fact]
    public async Task ClaimAsync_Committed_RowsAreGoneAndCarryTheirColumns()
    {
        var (outbox, _) = await CreateStoresAsync();
        await InsertAsync(3);

        await using (var claim = await outbox.ClaimAsync(2, CancellationToken.None))
        {
            Assert.All(claim.Rows, r => Assert.EndsWith("@example.com", r.Recipient, StringComparison.Ordinal));
            Assert.All(claim.Rows, r => Assert.False(string.IsNullOrEmpty(r.Subject)));
            await claim.CommitAsync(CancellationToken.None);
        }

        Assert.Equal(1, await outbox.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task TryMarkSendingAsync_SameIdTwice_OnlyTheFirstCallerOwnsIt()
    {
        var (_, log) = await CreateStoresAsync();

        var first = await log.TryMarkSendingAsync([1, 2, 3], CancellationToken.None);
        var second = await log.TryMarkSendingAsync([3, 4], CancellationToken.None);

        Assert.Equal([1, 2, 3], first.Order());
        Assert.Equal([4], second);
    }

    [Fact]
    public async Task RecordSentAsync_ThenFindSent_ReportsOnlySentIds()
    {
        var (_, log) = await CreateStoresAsync();
        await log.TryMarkSendingAsync([7, 8], CancellationToken.None);

        await log.RecordSentAsync([7, 9, 9], CancellationToken.None);

        Assert.Equal([7, 9], (await log.FindSentAsync([7, 8, 9, 10], CancellationToken.None)).Order());
    }

    [Fact]
    public async Task ReleaseAsync_SendingMark_CanBeMarkedAgainButSentCannot()
    {
        var (_, log) = await CreateStoresAsync();
        await log.TryMarkSendingAsync([1, 2], CancellationToken.None);
        await log.RecordSentAsync([2], CancellationToken.None);

        await log.ReleaseAsync([1, 2], CancellationToken.None);

        Assert.Equal([1], await log.TryMarkSendingAsync([1, 2], CancellationToken.None));
    }

    // A hand-back's mark: the next copy takes it over whether it comes before the release or after it; a copy after that finds
    // the taker's 'sending' mark; the release deletes only a mark still handing back; and the status says in_flight.
    [Fact]
    public async Task MarkHandingBackAsync_NextCopyTakesTheMarkOverAndTheReleaseLeavesItsMark()
    {
        var (_, status) = await CreateDeadLetterStoresAsync();
        var (_, log) = await CreateStoresAsync();
        await log.TryMarkSendingAsync([1, 2, 3], CancellationToken.None);
        await log.RecordSentAsync([3], CancellationToken.None);

        await log.MarkHandingBackAsync([1, 2, 3], CancellationToken.None);
        var handingBack = await status.GetAsync(1, CancellationToken.None);
        Assert.Equal("in_flight", handingBack.State);
        Assert.StartsWith("at most once: not sent, handed back as a copy", handingBack.Detail, StringComparison.Ordinal);
        // 1's copy comes before the release: it owns 1 (3 was sent, and stays so); the release then leaves 1's mark alone.
        Assert.Equal([1, 4], (await log.TryMarkSendingAsync([1, 3, 4], CancellationToken.None)).Order());
        await log.ReleaseHandedBackAsync([1, 2, 3], CancellationToken.None);
        Assert.Empty(await log.TryMarkSendingAsync([1, 3], CancellationToken.None));
        Assert.Equal(("in_flight", "sent"), ((await status.GetAsync(1, CancellationToken.None)).State, (await status.GetAsync(3, CancellationToken.None)).State));
        // 2's copy comes after the release: no mark left, it inserts one.
        Assert.Equal([2], await log.TryMarkSendingAsync([2], CancellationToken.None));
    }

    [Fact]
    public async Task RecordMaybeSentAsync_OnSendingMarksOnly_StatusMaybeSentWithReasonAndAttempt()
    {
        var (_, status) = await CreateDeadLetterStoresAsync();
        var (_, log) = await CreateStoresAsync();
        await log.TryMarkSendingAsync([1, 2, 3], CancellationToken.None);
        await log.RecordSentAsync([3], CancellationToken.None);
        string reason = "webhook transient failure: POST answered 502 Bad Gateway: " + new string('x', 1200);

        await log.RecordMaybeSentAsync([new(1, 2, reason), new(1, 2, reason), new(3, 1, "late"), new(4, 1, "no mark")], CancellationToken.None);

        var one = await status.GetAsync(1, CancellationToken.None);
        Assert.Equal(("maybe_sent", 2, DeadLetterRecord.MaxReasonLength), (one.State, one.Attempts, one.Reason?.Length));
        Assert.StartsWith("webhook transient failure: POST answered 502", one.Reason, StringComparison.Ordinal);
        Assert.Equal("in_flight", (await status.GetAsync(2, CancellationToken.None)).State);
        var three = await status.GetAsync(3, CancellationToken.None);
        Assert.Equal(("sent", null), (three.State, three.Reason));
        // The mark stays (1 cannot be marked again); an id without one got no row (4 can be).
        Assert.Equal([4], await log.TryMarkSendingAsync([1, 4], CancellationToken.None));
    }
}
