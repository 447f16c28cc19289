using Notifications.Harness;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.IntegrationTests.Harness;

/// <summary>
/// The harness's binary COPY of webhook and push rows (scripts/bench run --channel), read back as the producer claims them:
/// every row valid under its channel's rules, with the channel and data the consumer sends.
/// </summary>
[Collection("services")]
public sealed class BenchSeedingTests : IAsyncLifetime
{
    private const int Rows = 40;
    private readonly NpgsqlDataSource dataSource = NpgsqlDataSource.Create(TestServices.PostgresConnectionString);
    private readonly BenchDatabase bench = new(TestServices.PostgresConnectionString);

    public async Task InitializeAsync() => await TestDatabase.CleanAsync();

    public async Task DisposeAsync()
    {
        await bench.DisposeAsync();
        await dataSource.DisposeAsync();
    }

    [Fact]
    public async Task SeedAsync_WebhookChannel_ClaimedAsValidWebhookMessagesForTheEndpoint()
    {
        var channel = new BenchChannel(NotificationChannels.Webhook, Endpoint: "bench-seeding-test");

        await bench.SeedAsync(Rows, channel: channel);

        var messages = await ClaimAllAsync();
        Assert.Equal(Rows, messages.Count);
        Assert.All(messages, m => Assert.Null(NotificationValidator.Validate(m)));
        Assert.All(messages, m => Assert.Equal((NotificationChannels.Webhook, "bench-seeding-test", BenchChannel.EventType), (m.Channel, m.Recipient, m.Subject)));
        Assert.Equal(Enumerable.Range(1, Rows).Select(n => BenchChannel.WebhookData(n)), messages.Select(m => m.Data));
    }

    [Fact]
    public async Task SeedAsync_PushChannelBothProviders_ClaimedAsValidPushMessagesHalfFcmHalfApns()
    {
        await bench.SeedAsync(Rows, channel: new BenchChannel(NotificationChannels.Push));

        var messages = await ClaimAllAsync();
        Assert.Equal(Rows, messages.Count);
        Assert.All(messages, m => Assert.Null(NotificationValidator.Validate(m)));
        Assert.Equal(Rows / 2, messages.Count(m => m.Recipient!.StartsWith("fcm:", StringComparison.Ordinal)));
        Assert.Equal(Rows / 2, messages.Count(m => m.Recipient!.StartsWith("apns:", StringComparison.Ordinal)));
        Assert.Equal(Enumerable.Range(1, Rows).Select(n => BenchChannel.PushData(n)), messages.Select(m => m.Data));
    }

    [Fact]
    public async Task SeedAsync_NoChannel_EmailRowsAsBefore()
    {
        await bench.SeedAsync(Rows);

        var messages = await ClaimAllAsync();
        Assert.All(messages, m => Assert.Equal((NotificationChannels.Email, (string?)null), (m.ChannelName, m.Data)));
        Assert.All(messages, m => Assert.Null(NotificationValidator.Validate(m)));
    }

    private async Task<List<NotificationMessage>> ClaimAllAsync()
    {
        var store = new PostgresOutboxStore(dataSource, new DatabaseOptions { ConnectionString = TestServices.PostgresConnectionString, Schema = TestDatabase.Schema });
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await using var claim = await store.ClaimAsync(OutboxLanes.Standard, Rows * 2, timeout.Token);
        return claim.Rows.OrderBy(r => r.Id).Select(r => r.ToMessage()).ToList();
    }
}
