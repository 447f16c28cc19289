using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.IntegrationTests.Stores;

/// <summary>The delivery SLO as the admin's status reads it: from delivery_log.created_at and updated_at.</summary>
[Collection("services")]
public sealed class DeliveryWindowStoreTests : IDisposable
{
    private readonly NpgsqlDataSource _dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);

    public void Dispose() => _dataSource.Dispose();

    [Fact]
    public async Task GetDeliveryWindow_RecordedSends_CountsThresholdsAndLeavesOutOldAndUntimedRows()
    {
        await TestDatabase.CleanAsync();
        var options = new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema };
        var log = new PostgresDeliveryLogStore(_dataSource, options);
        var operations = new PostgresOperationsStore(_dataSource, options);
        await using var connection = await TestDatabase.OpenAsync();
        var now = await connection.ExecuteScalarAsync<DateTime>("SELECT now()");
        var dbNow = new DateTimeOffset(DateTime.SpecifyKind(now, DateTimeKind.Utc));

        await log.TryMarkSendingAsync([2], CancellationToken.None);   // an at-most-once mark, then sent
        await log.RecordSentAsync(
            [new SentNotification(1, dbNow.AddMilliseconds(-300)), new SentNotification(2, dbNow.AddSeconds(-30)),
             new SentNotification(3, dbNow.AddMinutes(-3)), new SentNotification(4, null), new SentNotification(5, dbNow.AddMinutes(-20))],
            CancellationToken.None);
        await connection.ExecuteAsync($"UPDATE {TestDatabase.Schema}.delivery_log SET updated_at = now() - interval '10 minutes' WHERE notification_id = 5");

        var window = await operations.GetDeliveryWindowAsync(TimeSpan.FromMinutes(5), CancellationToken.None);

        Assert.Equal(3, window.Delivered);       // 4 has no created_at, 5 is outside the window
        Assert.Equal(1, window.WithinFast);
        Assert.Equal(2, window.WithinSlo);
        Assert.Equal(3, window.LastMinute);
        Assert.Equal(2 / 3.0, window.SloRatio, 6);
        Assert.Equal([1, 2, 3, 4, 5], (await log.FindSentAsync([1, 2, 3, 4, 5, 6], CancellationToken.None)).Order());
    }
}
