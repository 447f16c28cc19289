using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.IntegrationTests.Stores;

[Collection("services")]
public sealed class PostgresStoreTests : StoreSuite, IDisposable
{
    private readonly NpgsqlDataSource _dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);
    private TestDatabase? _db;

    public void Dispose() => _dataSource.Dispose();

    protected override async Task<(IOutboxStore Outbox, IDeliveryLogStore Log)> CreateStoresAsync()
    {
        _db = await TestDatabase.CleanAsync();
        var options = new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema };
        return (new PostgresOutboxStore(_dataSource, options), new PostgresDeliveryLogStore(_dataSource, options));
    }

    protected override Task<IReadOnlyList<long>> InsertAsync(int count) => _db!.InsertAsync(count);

    protected override async Task<(IDeadLetterStore DeadLetters, INotificationStatusStore Status)> CreateDeadLetterStoresAsync()
    {
        _db = await TestDatabase.CleanAsync();
        var options = new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema };
        return (new PostgresDeadLetterStore(_dataSource, options), new PostgresNotificationStatusStore(_dataSource, options));
    }

    protected override async Task<IReadOnlyList<DeadLetterRow>> DeadLetterRowsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<DeadLetterRow>($"""
            SELECT letter_key AS "Key", notification_id AS NotificationId, reason AS Reason, attempts AS Attempts,
                   message_id AS MessageId, message_type AS MessageType, content_type AS ContentType, body AS Body
            FROM {TestDatabase.Schema}.dead_letter ORDER BY id
            """)).AsList();
    }

    protected override async Task<ISuppressionStore> CreateSuppressionStoreAsync()
    {
        _db = await TestDatabase.CleanAsync();
        return new PostgresSuppressionStore(_dataSource, new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema });
    }

    protected override async Task<ILivePendingStore> CreateLivePendingStoreAsync()
    {
        _db = await TestDatabase.CleanAsync();
        return new PostgresLivePendingStore(_dataSource, new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema });
    }

    protected override IRetentionStore CreateRetentionStore() =>
        new PostgresRetentionStore(_dataSource, new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema });

    protected override async Task<bool> AnySessionWaitsForALockAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<bool>(
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock')");
    }

    protected override async Task<(System.Data.Common.DbConnection Connection, string Schema)> OpenAppConnectionAsync() =>
        (await TestDatabase.OpenAsync(), TestDatabase.Schema);

    [Fact]
    public async Task ClaimAsync_RowsLockedByAnotherTransaction_AreSkippedNotWaitedFor()
    {
        var (outbox, _) = await CreateStoresAsync();
        var ids = await InsertAsync(3);
        await using var connection = await TestDatabase.OpenAsync();
        await using var locker = await connection.BeginTransactionAsync();
        await connection.ExecuteAsync("SELECT id FROM notifications.outbox WHERE id = @id FOR UPDATE", new { id = ids[0] }, locker);

        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        await using var claim = await outbox.ClaimAsync(10, timeout.Token);

        Assert.Equal(ids.Skip(1), claim.Rows.Select(r => r.Id));
    }
}
