using Dapper;
using Microsoft.EntityFrameworkCore;
using Notifications.Client;
using Notifications.Client.EntityFrameworkCore;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Client;

/// <summary><c>dbContext.EnqueueNotificationAsync</c> on the real PostgreSQL, through Npgsql's EF Core provider.</summary>
[Collection("services")]
public sealed class EfCoreEnqueueTests
{
    [Fact]
    public async Task EnqueueNotificationAsync_InTheContextsTransaction_CommitsAndRollsBackWithIt()
    {
        var db = await TestDatabase.CleanAsync();

        long rolledBack;
        await using (var context = NewContext())
        await using (var transaction = await context.Database.BeginTransactionAsync())
        {
            rolledBack = await context.EnqueueNotificationAsync(new NewNotification("ghost@example.com", "Never", "rolled back"), TestDatabase.Schema);
            await transaction.RollbackAsync();
        }

        long committed;
        await using (var context = NewContext())
        await using (var transaction = await context.Database.BeginTransactionAsync())
        {
            committed = await context.EnqueueNotificationAsync(
                new NewNotification("ada@example.com", "Welcome", "hello") { IdempotencyKey = "signup-ada" }, TestDatabase.Schema);
            long again = await context.EnqueueNotificationAsync(
                new NewNotification("ada@example.com", "Welcome", "hello") { IdempotencyKey = "signup-ada" }, TestDatabase.Schema);
            Assert.Equal(committed, again);
            await transaction.CommitAsync();
        }

        await using var connection = await TestDatabase.OpenAsync();
        var rows = await connection.QueryAsync<(long, string)>($"SELECT id, recipient FROM {TestDatabase.Schema}.outbox ORDER BY id");
        Assert.Equal([(committed, "ada@example.com")], rows);
        Assert.NotEqual(rolledBack, committed);
        Assert.Equal(1, await db.CountAsync("idempotency_key"));
    }

    [Fact]
    public async Task EnqueueNotificationAsync_NoTransactionOpen_ThrowsAndInsertsNothing()
    {
        var db = await TestDatabase.CleanAsync();
        await using var context = NewContext();

        var refused = await Assert.ThrowsAsync<InvalidOperationException>(
            () => context.EnqueueNotificationAsync(new NewNotification("a@example.com", "Hi", "body"), TestDatabase.Schema));

        Assert.Contains("BeginTransactionAsync", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, await db.CountAsync("outbox"));
    }

    private static DbContext NewContext() =>
        new(new DbContextOptionsBuilder().UseNpgsql(TestServices.PostgresConnectionString).Options);
}
