using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.Client;
using Notifications.Shared.Data;
using Notifications.Shared.Data.SqlServer;
using Notifications.Shared.Hosting;

namespace Notifications.IntegrationTests.Stores;

/// <summary>The store contract on SQL Server (NOTIFICATIONS_TEST_SQLSERVER), plus what only SQL Server has.</summary>
[Collection("services")]
[Trait("Category", "SqlServer")]
public sealed class SqlServerStoreTests(SqlServerSchema schema) : StoreSuite, IClassFixture<SqlServerSchema>
{
    private static readonly TimeSpan NotBlocked = TimeSpan.FromSeconds(10);

    protected override async Task<(IOutboxStore Outbox, IDeliveryLogStore Log)> CreateStoresAsync()
    {
        await schema.CleanAsync();
        var options = new DatabaseOptions { Provider = DatabaseProvider.SqlServer, ConnectionString = schema.ConnectionString, Schema = schema.Name };
        return (new SqlServerOutboxStore(options), new SqlServerDeliveryLogStore(options));
    }

    protected override Task<IReadOnlyList<long>> InsertAsync(int count) => schema.InsertAsync(count);

    protected override async Task<(IDeadLetterStore DeadLetters, INotificationStatusStore Status)> CreateDeadLetterStoresAsync()
    {
        await schema.CleanAsync();
        var options = new DatabaseOptions { Provider = DatabaseProvider.SqlServer, ConnectionString = schema.ConnectionString, Schema = schema.Name };
        return (new SqlServerDeadLetterStore(options), new SqlServerNotificationStatusStore(options));
    }

    protected override async Task<IReadOnlyList<DeadLetterRow>> DeadLetterRowsAsync()
    {
        await using var connection = await schema.OpenAsync();
        return (await connection.QueryAsync<DeadLetterRow>($"""
            SELECT letter_key AS [Key], notification_id AS NotificationId, reason AS Reason, attempts AS Attempts,
                   message_id AS MessageId, message_type AS MessageType, content_type AS ContentType, body AS Body
            FROM [{schema.Name}].[dead_letter] ORDER BY id;
            """)).AsList();
    }

    protected override async Task<ISuppressionStore> CreateSuppressionStoreAsync()
    {
        await schema.CleanAsync();
        return new SqlServerSuppressionStore(new DatabaseOptions { Provider = DatabaseProvider.SqlServer, ConnectionString = schema.ConnectionString, Schema = schema.Name });
    }

    protected override async Task<ILivePendingStore> CreateLivePendingStoreAsync()
    {
        await schema.CleanAsync();
        return new SqlServerLivePendingStore(new DatabaseOptions { Provider = DatabaseProvider.SqlServer, ConnectionString = schema.ConnectionString, Schema = schema.Name });
    }

    protected override IRetentionStore CreateRetentionStore() =>
        new SqlServerRetentionStore(new DatabaseOptions { Provider = DatabaseProvider.SqlServer, ConnectionString = schema.ConnectionString, Schema = schema.Name });

    protected override async Task<bool> AnySessionWaitsForALockAsync()
    {
        await using var connection = await schema.OpenAsync();
        return await connection.ExecuteScalarAsync<bool>(
            "SELECT CAST(CASE WHEN EXISTS (SELECT 1 FROM sys.dm_exec_requests WHERE blocking_session_id <> 0 AND database_id = DB_ID()) THEN 1 ELSE 0 END AS bit)");
    }

    protected override async Task<(System.Data.Common.DbConnection Connection, string Schema)> OpenAppConnectionAsync() =>
        (await schema.OpenAsync(), schema.Name);

    [Fact]
    public async Task ClaimAsync_RowsLockedByAnotherTransaction_AreSkippedNotWaitedFor()
    {
        var (outbox, _) = await CreateStoresAsync();
        var ids = await InsertAsync(3);
        await using var connection = await schema.OpenAsync();
        await using var locker = connection.BeginTransaction();
        await connection.ExecuteAsync(
            $"SELECT id FROM [{schema.Name}].[outbox] WITH (UPDLOCK, ROWLOCK) WHERE id = @id", new { id = ids[0] }, locker);

        using var timeout = new CancellationTokenSource(NotBlocked);
        await using var claim = await outbox.ClaimAsync(10, timeout.Token);

        Assert.Equal(ids.Skip(1), claim.Rows.Select(r => r.Id));
    }

    // Past ~5,000 locks SQL Server would escalate to a table lock; LOCK_ESCALATION = DISABLE must keep
    // the business apps' inserts flowing while a large claim is open.
    [Fact]
    public async Task ClaimAsync_SixThousandRowsOpen_ConcurrentEnqueueIsNotBlocked()
    {
        var (outbox, _) = await CreateStoresAsync();
        await InsertAsync(6000);
        await using var claim = await outbox.ClaimAsync(6000, CancellationToken.None);
        Assert.Equal(6000, claim.Rows.Count);

        using var timeout = new CancellationTokenSource(NotBlocked);
        long id = await EnqueueAsync(new NewNotification("late@example.com", "Late", "inserted during a claim"), commit: true, timeout.Token);

        Assert.True(id > claim.Rows[^1].Id);
    }

    [Fact]
    public async Task EnqueueAsync_SqlConnectionCommitted_RowIsClaimedWithEveryColumn()
    {
        var (outbox, _) = await CreateStoresAsync();
        var expires = new DateTimeOffset(2031, 5, 6, 7, 8, 9, 123, TimeSpan.Zero);
        var notification = new NewNotification("a@example.com", "Subject ü", "<p>Body</p>") { IsHtml = true, ExpiresAt = expires };

        long id = await EnqueueAsync(notification, commit: true, CancellationToken.None);

        await using var claim = await outbox.ClaimAsync(10, CancellationToken.None);
        var row = Assert.Single(claim.Rows);
        Assert.Equal(
            (id, "a@example.com", "Subject ü", "<p>Body</p>", true, (DateTimeOffset?)expires),
            (row.Id, row.Recipient, row.Subject, row.Body, row.IsHtml, row.ExpiresAt));
    }

    [Fact]
    public async Task EnqueueAsync_SqlConnectionRolledBack_LeavesNoRow()
    {
        var (outbox, _) = await CreateStoresAsync();

        await EnqueueAsync(new NewNotification("ghost@example.com", "Never", "rolled back"), commit: false, CancellationToken.None);

        Assert.Equal(0, await outbox.CountAsync(CancellationToken.None));
    }

    private async Task<long> EnqueueAsync(NewNotification notification, bool commit, CancellationToken cancellationToken)
    {
        await using var connection = new SqlConnection(schema.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        await using var transaction = connection.BeginTransaction();
        long id = await NotificationOutbox.EnqueueAsync(transaction, notification, schema.Name, cancellationToken);
        await (commit ? transaction.CommitAsync(cancellationToken) : transaction.RollbackAsync(cancellationToken));
        return id;
    }
}
