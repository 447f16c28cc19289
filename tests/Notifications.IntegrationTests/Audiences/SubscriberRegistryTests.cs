using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// <see cref="ISubscriberRegistry"/> as an app gets it from <c>AddNotificationsClient(o =&gt; o.UsePostgreSql(...))</c>, as a
/// login in the <c>notifications_app</c> role, in the app's own transactions on the real PostgreSQL; each effect read back
/// from the registry's tables.
/// </summary>
[Collection("services")]
public sealed class SubscriberRegistryTests
{
    private const string FcmToken = "dQw4w9WgXcQ:APA91bH-Token_Of_Ana";
    private const string ApnsToken = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";

    [Fact]
    public async Task Registry_InARolledBackTransaction_LeavesNothing()
    {
        var db = await TestDatabase.CleanAsync();
        await PutCategoryAsync("orders", critical: false);
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();

        await AppRegistry.InTransactionAsync(commit: false, async tx =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana-1", "pt-BR", "Europe/Lisbon"));
            await registry.AddDeviceAsync(tx, "ana-1", PushDevice.Fcm(FcmToken));
            await registry.AddEmailAsync(tx, "ana-1", "Ana@Example.com");
            await registry.SubscribeAsync(tx, "ana-1", "breaking-news");
            await registry.SetPreferenceAsync(tx, "ana-1", "orders", "email", enabled: false);
        });

        foreach (string table in new[] { "subscriber", "contact_point", "topic", "subscription", "preference" })
        {
            Assert.Equal(0, await db.CountAsync(table));
        }
    }

    [Fact]
    public async Task Registry_Committed_SubscriberDevicesTopicsAndPreferencesInTheTables()
    {
        await TestDatabase.CleanAsync();
        await PutCategoryAsync("orders", critical: false);
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();

        bool firstSubscribe = false, secondSubscribe = true;
        await AppRegistry.InTransactionAsync(commit: true, async tx =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana-1", "pt-BR", "Europe/Lisbon"));
            await registry.AddDeviceAsync(tx, "ana-1", PushDevice.Fcm(FcmToken, "com.example.shop"));
            await registry.AddDeviceAsync(tx, "ana-1", PushDevice.Apns(ApnsToken));
            await registry.AddEmailAsync(tx, "ana-1", " Ana@Example.com ");
            firstSubscribe = await registry.SubscribeAsync(tx, "ana-1", "breaking-news");
            secondSubscribe = await registry.SubscribeAsync(tx, "ana-1", "breaking-news");
            await registry.SetPreferenceAsync(tx, "ana-1", "orders", "push", enabled: false);
        });

        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(("pt-BR", "Europe/Lisbon"), await connection.QuerySingleAsync<(string, string)>(
            $"SELECT locale, time_zone FROM {TestDatabase.Schema}.subscriber WHERE external_id = 'ana-1'"));
        var points = (await connection.QueryAsync<(string, string, string?)>(
            $"SELECT channel, address, app_id FROM {TestDatabase.Schema}.contact_point ORDER BY channel, address")).ToList();
        Assert.Equal([("email", "ana@example.com", null), ("push", "apns:" + ApnsToken, null), ("push", "fcm:" + FcmToken, "com.example.shop")], points);
        Assert.Equal((true, false), (firstSubscribe, secondSubscribe));
        Assert.Equal(1, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.subscription"));
        Assert.Equal(("orders", "push", false), await connection.QuerySingleAsync<(string, string, bool)>(
            $"SELECT category, channel, enabled FROM {TestDatabase.Schema}.preference"));
    }

    [Fact]
    public async Task AddDeviceAsync_SameDeviceTwice_OneDeviceAliveAgain()
    {
        var db = await TestDatabase.CleanAsync();
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();
        await AppRegistry.InTransactionAsync(commit: true, async tx =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana-1"));
            await registry.AddDeviceAsync(tx, "ana-1", PushDevice.Fcm(FcmToken));
        });
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"UPDATE {TestDatabase.Schema}.contact_point SET dead_at = now(), dead_reason = 'UNREGISTERED'");
        }

        await AppRegistry.InTransactionAsync(commit: true, tx => registry.AddDeviceAsync(tx, "ana-1", PushDevice.Fcm(FcmToken)));

        Assert.Equal(1, await db.CountAsync("contact_point"));
        await using var check = await TestDatabase.OpenAsync();
        Assert.Equal(0, await check.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.contact_point WHERE dead_at IS NOT NULL"));
    }

    [Fact]
    public async Task RemoveAndUnsubscribe_Known_GoneAndUnknown_False()
    {
        var db = await TestDatabase.CleanAsync();
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();
        await AppRegistry.InTransactionAsync(commit: true, async tx =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana-1"));
            await registry.AddDeviceAsync(tx, "ana-1", PushDevice.Fcm(FcmToken));
            await registry.AddEmailAsync(tx, "ana-1", "ana@example.com");
            await registry.SubscribeAsync(tx, "ana-1", "breaking-news");
        });

        var removed = new List<bool>();
        await AppRegistry.InTransactionAsync(commit: true, async tx =>
        {
            removed.Add(await registry.RemoveDeviceAsync(tx, "ana-1", PushDevice.Fcm(FcmToken)));
            removed.Add(await registry.RemoveDeviceAsync(tx, "ana-1", PushDevice.Fcm(FcmToken)));
            removed.Add(await registry.RemoveEmailAsync(tx, "ana-1", "ANA@example.com"));
            removed.Add(await registry.UnsubscribeAsync(tx, "ana-1", "breaking-news"));
            removed.Add(await registry.UnsubscribeAsync(tx, "ana-1", "no-such-topic"));
        });

        Assert.Equal([true, false, true, true, false], removed);
        Assert.Equal((0L, 0L, 1L), (await db.CountAsync("contact_point"), await db.CountAsync("subscription"), await db.CountAsync("topic")));
    }

    [Fact]
    public async Task SetPreferenceAsync_CriticalCategoryOptOut_RefusedOptInAllowed()
    {
        var db = await TestDatabase.CleanAsync();
        await PutCategoryAsync("security", critical: true);
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();
        await AppRegistry.InTransactionAsync(commit: true, tx => registry.UpsertSubscriberAsync(tx, new Subscriber("ana-1")));

        var refused = await Assert.ThrowsAsync<InvalidOperationException>(
            () => AppRegistry.InTransactionAsync(commit: true, tx => registry.SetPreferenceAsync(tx, "ana-1", "security", "email", enabled: false)));
        var unknown = await Assert.ThrowsAsync<InvalidOperationException>(
            () => AppRegistry.InTransactionAsync(commit: true, tx => registry.SetPreferenceAsync(tx, "ana-1", "marketing", "email", enabled: false)));
        await AppRegistry.InTransactionAsync(commit: true, tx => registry.SetPreferenceAsync(tx, "ana-1", "security", "push", enabled: true));

        Assert.Contains("'security' is critical", refused.Message, StringComparison.Ordinal);
        Assert.Contains("no category 'marketing'", unknown.Message, StringComparison.Ordinal);
        Assert.Equal(1, await db.CountAsync("preference"));
    }

    [Fact]
    public async Task AddDeviceAsync_UnknownSubscriber_RefusedNamingUpsert()
    {
        var db = await TestDatabase.CleanAsync();
        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();

        var refused = await Assert.ThrowsAsync<InvalidOperationException>(
            () => AppRegistry.InTransactionAsync(commit: true, tx => registry.AddDeviceAsync(tx, "nobody", PushDevice.Fcm(FcmToken))));

        Assert.Contains("no subscriber 'nobody'", refused.Message, StringComparison.Ordinal);
        Assert.Contains("UpsertSubscriberAsync", refused.Message, StringComparison.Ordinal);
        Assert.Equal(0, await db.CountAsync("contact_point"));
    }

    [Fact]
    public async Task Tables_WrongShapesWrittenAroundTheClient_RefusedByTheirChecks()
    {
        await TestDatabase.CleanAsync();
        await using var connection = await TestDatabase.OpenAsync();

        foreach (string sql in new[]
                 {
                     $"INSERT INTO {TestDatabase.Schema}.subscriber (external_id) VALUES ('has space')",
                     $"INSERT INTO {TestDatabase.Schema}.topic (name) VALUES ('Upper')",
                     $"INSERT INTO {TestDatabase.Schema}.category (name) VALUES ('-leading')",
                 })
        {
            var refused = await Assert.ThrowsAsync<PostgresException>(() => connection.ExecuteAsync(sql));
            Assert.Equal(PostgresErrorCodes.CheckViolation, refused.SqlState);
        }
    }

    private static async Task PutCategoryAsync(string name, bool critical)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.category (name, critical) VALUES (@name, @critical)", new { name, critical });
    }
}
