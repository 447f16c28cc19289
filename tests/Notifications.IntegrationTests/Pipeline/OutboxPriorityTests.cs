using Dapper;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Pipeline;

/// <summary>A priority outside 'urgent' | 'normal' | 'bulk' cannot get into the outbox, by SQL or by the API.</summary>
[Collection("services")]
public sealed class OutboxPriorityTests
{
    [Fact]
    public async Task Insert_UnknownPriority_RefusedByTheCheckConstraint()
    {
        var db = await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();

        var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.outbox (recipient, subject, body, priority) VALUES ('a@example.com', 'Hi', 'body', 'high')"));

        Assert.Equal(PostgresErrorCodes.CheckViolation, refused.SqlState);
        Assert.Equal("outbox_priority_known", refused.ConstraintName);
        Assert.Equal(0, await db.CountAsync("outbox"));
    }

    [Fact]
    public async Task EnqueueAsync_UndefinedPriority_ThrowsWithTheAllowedValuesAndInsertsNothing()
    {
        var db = await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();

        var refused = await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => NotificationOutbox.EnqueueAsync(
            transaction, new NewNotification("a@example.com", "Hi", "body") { Priority = (NotificationPriority)7 }, TestDatabase.Schema));
        long id = await NotificationOutbox.EnqueueAsync(transaction, new NewNotification("b@example.com", "Hi", "body"), TestDatabase.Schema);
        await transaction.CommitAsync();

        Assert.Contains("'urgent', 'normal', 'bulk'", refused.Message, StringComparison.Ordinal);
        Assert.Equal(1, await db.CountAsync("outbox"));
        Assert.Equal("normal", await connection.ExecuteScalarAsync<string>($"SELECT priority FROM {TestDatabase.Schema}.outbox WHERE id = @id", new { id }));
    }
}
