using System.Data.Common;
using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.Stores;

/// <summary>The client package's enqueue and its idempotency key, on both dialects.</summary>
public abstract partial class StoreSuite
{
    private static readonly TimeSpan LockWait = TimeSpan.FromSeconds(20);

    protected abstract IRetentionStore CreateRetentionStore();

    /// <summary>Whether a session of the test database is waiting for a lock another holds.</summary>
    protected abstract Task<bool> AnySessionWaitsForALockAsync();

    [Fact]
    public async Task EnqueueAsync_WithKeyRolledBack_LeavesNoRowAndNoKey()
    {
        var (outbox, _) = await CreateStoresAsync();
        var (connection, schema) = await OpenAppConnectionAsync();
        await using (connection)
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            await NotificationOutbox.EnqueueAsync(transaction, Keyed("order-1"), schema);
            await transaction.RollbackAsync();
        }

        Assert.Equal(0, await outbox.CountAsync(CancellationToken.None));
        Assert.Equal(0, await CountKeysAsync());
    }

    [Fact]
    public async Task EnqueueAsync_SameKeyTwice_InsertsOnceAndReturnsTheFirstId()
    {
        var (outbox, _) = await CreateStoresAsync();

        long first = await EnqueueCommittedAsync(Keyed("order-2"));
        long again = await EnqueueCommittedAsync(Keyed("order-2") with { Subject = "a retry's different subject" });
        long other = await EnqueueCommittedAsync(Keyed("order-3"));

        Assert.Equal(first, again);
        Assert.NotEqual(first, other);
        Assert.Equal(2, await outbox.CountAsync(CancellationToken.None));
        await using var claim = await outbox.ClaimAsync(10, CancellationToken.None);
        Assert.Equal([(first, "Confirmed"), (other, "Confirmed")], claim.Rows.Select(r => (r.Id, r.Subject)));
    }

    [Fact]
    public async Task EnqueueAsync_SameKeyAfterTheRowWasClaimed_StillReturnsTheFirstId()
    {
        var (outbox, _) = await CreateStoresAsync();
        long first = await EnqueueCommittedAsync(Keyed("order-4"));
        await using (var claim = await outbox.ClaimAsync(10, CancellationToken.None))
        {
            await claim.CommitAsync(CancellationToken.None);
        }

        long again = await EnqueueCommittedAsync(Keyed("order-4"));

        Assert.Equal(first, again);
        Assert.Equal(0, await outbox.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task EnqueueAsync_SameKeyWhileAnotherTransactionHoldsIt_WaitsThenReturnsTheCommittedId()
    {
        var (outbox, _) = await CreateStoresAsync();
        await using var held = await HoldKeyWhileASecondEnqueueWaitsAsync("order-5");

        await held.Transaction.CommitAsync();

        Assert.Equal(held.FirstId, await held.Second.WaitAsync(LockWait));
        Assert.Equal(1, await outbox.CountAsync(CancellationToken.None));
        Assert.Equal(1, await CountKeysAsync());
    }

    [Fact]
    public async Task EnqueueAsync_SameKeyWhileAnotherTransactionRollsItBack_InsertsItsOwn()
    {
        var (outbox, _) = await CreateStoresAsync();
        await using var held = await HoldKeyWhileASecondEnqueueWaitsAsync("order-6");

        await held.Transaction.RollbackAsync();

        long secondId = await held.Second.WaitAsync(LockWait);
        Assert.NotEqual(held.FirstId, secondId);
        await using var claim = await outbox.ClaimAsync(10, CancellationToken.None);
        Assert.Equal([secondId], claim.Rows.Select(r => r.Id));
    }

    [Fact]
    public async Task EnqueueAsync_SameKeyFromTwoConnectionsAtOnce_OneRowAndBothGetItsId()
    {
        var (outbox, _) = await CreateStoresAsync();
        var start = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);

        async Task<long> EnqueueWhenToldAsync()
        {
            var (connection, schema) = await OpenAppConnectionAsync();
            await using (connection)
            await using (var transaction = await connection.BeginTransactionAsync())
            {
                await start.Task;
                long id = await NotificationOutbox.EnqueueAsync(transaction, Keyed("order-7"), schema);
                await transaction.CommitAsync();
                return id;
            }
        }

        var both = new[] { EnqueueWhenToldAsync(), EnqueueWhenToldAsync() };
        start.SetResult();
        long[] ids = await Task.WhenAll(both).WaitAsync(LockWait);

        Assert.Equal(ids[0], ids[1]);
        Assert.Equal(1, await outbox.CountAsync(CancellationToken.None));
        Assert.Equal(1, await CountKeysAsync());
    }

    [Fact]
    public async Task EnqueueAsync_KeyOverTwoHundredCharacters_ThrowsArgumentExceptionAndInsertsNothing()
    {
        var (outbox, _) = await CreateStoresAsync();
        var (connection, schema) = await OpenAppConnectionAsync();
        await using (connection)
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            var refused = await Assert.ThrowsAsync<ArgumentException>(
                () => NotificationOutbox.EnqueueAsync(transaction, Keyed(new string('k', 201)), schema));
            Assert.Contains("at most 200", refused.Message, StringComparison.Ordinal);
            await transaction.CommitAsync();
        }

        Assert.Equal(0, await outbox.CountAsync(CancellationToken.None));
    }

    [Fact]
    public async Task DeleteIdempotencyKeysAsync_OldKey_IsForgottenAndEnqueuesAgainYoungKeyKept()
    {
        await CreateStoresAsync();
        long old = await EnqueueCommittedAsync(Keyed("order-8"));
        long young = await EnqueueCommittedAsync(Keyed("order-9"));
        var (connection, schema) = await OpenAppConnectionAsync();
        await using (connection)
        {
            await connection.ExecuteAsync(
                $"UPDATE {schema}.idempotency_key SET created_at = @At WHERE idempotency_key = 'order-8'", new { At = DateTimeOffset.UtcNow.AddDays(-40) });
        }

        var batch = await CreateRetentionStore().DeleteIdempotencyKeysAsync(DateTimeOffset.UtcNow.AddDays(-30), 100, CancellationToken.None);

        Assert.Equal(new RetentionBatch(1, null), batch);
        Assert.NotEqual(old, await EnqueueCommittedAsync(Keyed("order-8")));
        Assert.Equal(young, await EnqueueCommittedAsync(Keyed("order-9")));
    }

    /// <summary>A first transaction holding <paramref name="key"/> uncommitted, and a second enqueue of it, seen waiting.</summary>
    private async Task<HeldKey> HoldKeyWhileASecondEnqueueWaitsAsync(string key)
    {
        var (connection, schema) = await OpenAppConnectionAsync();
        var transaction = await connection.BeginTransactionAsync();
        long firstId = await NotificationOutbox.EnqueueAsync(transaction, Keyed(key), schema);
        var second = EnqueueCommittedAsync(Keyed(key));
        await Eventually.WaitAsync(AnySessionWaitsForALockAsync, waiting => waiting || second.IsCompleted, LockWait, "the second enqueue waits for the first");
        Assert.False(second.IsCompleted, "the second enqueue of an uncommitted key did not wait for the first transaction");
        return new HeldKey(connection, transaction, firstId, second);
    }

    private static NewNotification Keyed(string key) => new("buyer@example.com", "Confirmed", "Thank you") { IdempotencyKey = key };

    private async Task<long> EnqueueCommittedAsync(NewNotification notification)
    {
        var (connection, schema) = await OpenAppConnectionAsync();
        await using (connection)
        await using (var transaction = await connection.BeginTransactionAsync())
        {
            long id = await NotificationOutbox.EnqueueAsync(transaction, notification, schema);
            await transaction.CommitAsync();
            return id;
        }
    }

    private async Task<long> CountKeysAsync()
    {
        var (connection, schema) = await OpenAppConnectionAsync();
        await using (connection)
        {
            return await connection.ExecuteScalarAsync<long>($"SELECT COUNT(*) FROM {schema}.idempotency_key");
        }
    }

    private sealed record HeldKey(DbConnection Connection, DbTransaction Transaction, long FirstId, Task<long> Second) : IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            await Transaction.DisposeAsync();
            await Connection.DisposeAsync();
        }
    }
}
