using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Notifications.Client;
using Notifications.Client.EntityFrameworkCore;
using Npgsql;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// <c>dbContext.AddNotification</c> + <c>SaveChangesAsync</c> (the EF Core outbox) on the real PostgreSQL: the notification
/// is inserted exactly when the save commits, and a failed save leaves nothing and keeps it for the next one.
/// </summary>
[Collection("services")]
public sealed class EfSaveChangesTests
{
    [Fact]
    public async Task AddNotification_SaveChangesCommits_InsertedWithTheChangesAndIdSet()
    {
        await ShopContext.CleanAsync();
        await using var db = new ShopContext(ShopContext.Options());
        db.Orders.Add(new ShopOrder { Item = "a book" });
        var first = db.AddNotification(new NewNotification("ada@example.com", "Order confirmed", "Thank you") { IdempotencyKey = "order-1" });
        var repeated = db.AddNotification(new NewNotification("ada@example.com", "Order confirmed", "Thank you") { IdempotencyKey = "order-1" });

        Assert.Null(first.Id);
        await db.SaveChangesAsync();

        Assert.Equal([(first.Id!.Value, "ada@example.com")], await ShopContext.OutboxAsync());
        Assert.Equal(first.Id, repeated.Id);
        Assert.Equal(["a book"], await ShopContext.OrderItemsAsync());
        Assert.Equal(AutoTransactionBehavior.WhenNeeded, db.Database.AutoTransactionBehavior);
    }

    [Fact]
    public async Task AddNotification_SaveChangesFailsAtCommit_NothingInsertedAndTheNextSaveInsertsIt()
    {
        await ShopContext.CleanAsync();
        await using var db = new ShopContext(ShopContext.Options());
        var order = new ShopOrder { Item = "a pen", CustomerId = 404 };
        db.Orders.Add(order);
        var pending = db.AddNotification(new NewNotification("bo@example.com", "Order confirmed", "Thank you"));

        // The order's deferred foreign key fails at COMMIT: after the order's insert and the notification's.
        var failed = await Assert.ThrowsAsync<PostgresException>(() => db.SaveChangesAsync());

        Assert.Equal(PostgresErrorCodes.ForeignKeyViolation, failed.SqlState);
        Assert.Empty(await ShopContext.OutboxAsync());
        Assert.Empty(await ShopContext.OrderItemsAsync());
        Assert.Null(pending.Id);

        order.CustomerId = null;
        await db.SaveChangesAsync();

        Assert.Equal([(pending.Id!.Value, "bo@example.com")], await ShopContext.OutboxAsync());
        Assert.Equal(["a pen"], await ShopContext.OrderItemsAsync());
    }

    [Fact]
    public async Task AddNotification_TheInsertFails_TheOneStatementSaveRollsBackToo()
    {
        await ShopContext.CleanAsync();
        // No such schema: the notification's insert fails. One order is one statement, which EF Core would run without
        // a transaction of its own: the outbox makes it begin one, so the order goes with the notification.
        await using var db = new ShopContext(ShopContext.Options(schema: "no_such_schema"));
        db.Orders.Add(new ShopOrder { Item = "a lamp" });
        db.AddNotification(new NewNotification("cy@example.com", "Order confirmed", "Thank you"));

        var failed = await Assert.ThrowsAsync<PostgresException>(() => db.SaveChangesAsync());

        Assert.Equal(PostgresErrorCodes.UndefinedTable, failed.SqlState);
        Assert.Empty(await ShopContext.OrderItemsAsync());
        Assert.Equal(AutoTransactionBehavior.WhenNeeded, db.Database.AutoTransactionBehavior);
    }

    [Fact]
    public async Task AddNotification_InTheAppsTransaction_CommitsAndRollsBackWithIt()
    {
        await ShopContext.CleanAsync();
        await using (var db = new ShopContext(ShopContext.Options()))
        await using (var transaction = await db.Database.BeginTransactionAsync())
        {
            db.Orders.Add(new ShopOrder { Item = "rolled back" });
            db.AddNotification(new NewNotification("ghost@example.com", "Never", "rolled back"));
            await db.SaveChangesAsync();
            await transaction.RollbackAsync();
        }

        PendingNotification committed;
        await using (var db = new ShopContext(ShopContext.Options()))
        await using (var transaction = await db.Database.BeginTransactionAsync())
        {
            db.Orders.Add(new ShopOrder { Item = "committed" });
            committed = db.AddNotification(new NewNotification("dee@example.com", "Order confirmed", "Thank you"));
            await db.SaveChangesAsync();
            await transaction.CommitAsync();
        }

        Assert.Equal([(committed.Id!.Value, "dee@example.com")], await ShopContext.OutboxAsync());
        Assert.Equal(["committed"], await ShopContext.OrderItemsAsync());
    }

    [Fact]
    public async Task AddNotification_NothingElseToSave_SaveChangesInsertsIt()
    {
        await ShopContext.CleanAsync();
        await using var db = new ShopContext(ShopContext.Options());
        var pending = db.AddNotification(new NewNotification("eve@example.com", "Just this", "body"));

        Assert.Equal(0, await db.SaveChangesAsync());

        Assert.Equal([(pending.Id!.Value, "eve@example.com")], await ShopContext.OutboxAsync());
        await db.SaveChangesAsync();
        Assert.Single(await ShopContext.OutboxAsync());
    }

    [Fact]
    public async Task AddNotification_PooledContextReturnedUnsaved_ForgottenByTheNextLease()
    {
        await ShopContext.CleanAsync();
        var pool = new PooledDbContextFactory<ShopContext>(ShopContext.Options());
        ShopContext leased;
        await using (leased = await pool.CreateDbContextAsync())
        {
            leased.AddNotification(new NewNotification("left@example.com", "Abandoned", "never saved"));
        }

        await using var next = await pool.CreateDbContextAsync();
        Assert.Same(leased, next);
        next.Orders.Add(new ShopOrder { Item = "next lease" });
        await next.SaveChangesAsync();

        Assert.Empty(await ShopContext.OutboxAsync());
    }

    [Fact]
    public async Task AddNotification_ContextWithoutUseNotificationsOutbox_ThrowsAtOnce()
    {
        await using var db = new ShopContext(new DbContextOptionsBuilder<ShopContext>().UseNpgsql(Infrastructure.TestServices.PostgresConnectionString).Options);

        var refused = Assert.Throws<InvalidOperationException>(() => db.AddNotification(new NewNotification("a@example.com", "Hi", "body")));

        Assert.Contains("UseNotificationsOutbox", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task AddNotification_SynchronousSaveChanges_RefusedBeforeAnyWrite()
    {
        await ShopContext.CleanAsync();
        await using var db = new ShopContext(ShopContext.Options());
        db.Orders.Add(new ShopOrder { Item = "sync" });
        db.AddNotification(new NewNotification("sync@example.com", "Hi", "body"));

        var refused = Assert.Throws<InvalidOperationException>(() => db.SaveChanges());

        Assert.Contains("SaveChangesAsync", refused.Message, StringComparison.Ordinal);
        Assert.Empty(await ShopContext.OrderItemsAsync());
    }
}
