using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using Notifications.Consumer.Channels.Webhook;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Webhooks;

/// <summary>
/// The endpoint cache of one consumer (<see cref="WebhookEndpoints"/>, kept in step by <see cref="WebhookEndpointRefreshService"/>)
/// while refreshes fail and handlers look endpoints up: every change the table made reaches the cache. The clock and the
/// table are the test's, so each interleaving is driven step by step.
/// </summary>
public sealed class WebhookEndpointCacheTests
{
    private const string OldSecret = "whsec_b2xkLXNlY3JldC1rZXktMzItYnl0ZXMtbG9uZyE=";
    private const string NewSecret = "whsec_bmV3LXNlY3JldC1rZXktMzItYnl0ZXMtbG9uZyE=";
    private static readonly DateTimeOffset Start = new(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);
    private static readonly WebhookOptions Options = new();

    [Fact]
    public async Task Refresh_AHandlerReadANewEndpointWhileRefreshesFailed_DisableAndRotationStillReachTheCache()
    {
        var (time, table, endpoints, refresh) = await StartAsync(Row("partner", Start.AddHours(-1)), Row("other", Start.AddHours(-1)));

        // The refresh query fails (the database is slow, say) for ten minutes...
        table.FailReads = true;
        await TickAsync(time, table, Options.RefreshInterval);
        // ...during which an operator disables one endpoint and rotates another's secret...
        table.Put(Row("partner", time.GetUtcNow(), disabled: true));
        table.Put(Row("other", time.GetUtcNow(), secret: NewSecret));
        await TickAsync(time, table, TimeSpan.FromMinutes(10));
        // ...and adds a third, which a handler reads from the table at its first row (it is not in the cache yet).
        table.Put(Row("newcomer", time.GetUtcNow()));
        Assert.NotNull(await endpoints.FindAsync("newcomer", CancellationToken.None));

        table.FailReads = false;
        await TickAsync(time, table, Options.RefreshInterval);
        await TickAsync(time, table, Options.RefreshInterval);   // the next read begins: the one before it was applied

        Assert.NotNull(endpoints.Find("partner")!.DisabledAt);
        Assert.Equal(NewSecret, endpoints.Find("other")!.Secret);
        await refresh.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task Refresh_ReadBeforeThisProcessDisabledTheEndpoint_TheDisableStays()
    {
        var (time, table, endpoints, refresh) = await StartAsync(Row("partner", Start.AddSeconds(-5)));

        // A refresh reads the row as it was (in the overlap, so read again)...
        var hold = table.HoldNextRead();
        await TickAsync(time, table, Options.RefreshInterval);
        // ...while a handler gets a 410 and disables the endpoint in this process...
        endpoints.MarkDisabled(endpoints.Find("partner")!, "410 Gone", time.GetUtcNow());
        // ...then the refresh applies what it read, which is not newer than what the cache holds.
        hold.SetResult();
        await TickAsync(time, table, Options.RefreshInterval);

        Assert.NotNull(endpoints.Find("partner")!.DisabledAt);
        await refresh.StopAsync(CancellationToken.None);
    }

    [Fact]
    public async Task Refresh_EmptyTableAtLoadThenFailures_AnEndpointAddedAndDisabledMeanwhileIsSeenDisabled()
    {
        var (time, table, endpoints, refresh) = await StartAsync();

        table.FailReads = true;
        await TickAsync(time, table, Options.RefreshInterval);
        table.Put(Row("partner", time.GetUtcNow()));
        Assert.Null((await endpoints.FindAsync("partner", CancellationToken.None))!.DisabledAt);
        await TickAsync(time, table, TimeSpan.FromMinutes(5));
        table.Put(Row("partner", time.GetUtcNow(), disabled: true));
        await TickAsync(time, table, TimeSpan.FromMinutes(5));

        table.FailReads = false;
        await TickAsync(time, table, Options.RefreshInterval);
        await TickAsync(time, table, Options.RefreshInterval);

        Assert.NotNull(endpoints.Find("partner")!.DisabledAt);
        await refresh.StopAsync(CancellationToken.None);
    }

    private static async Task<(FakeTimeProvider, EndpointTable, WebhookEndpoints, WebhookEndpointRefreshService)> StartAsync(params WebhookEndpoint[] rows)
    {
        var time = new FakeTimeProvider(Start);
        var table = new EndpointTable();
        foreach (var row in rows)
        {
            table.Put(row);
        }

        var endpoints = new WebhookEndpoints(table);
        var refresh = new WebhookEndpointRefreshService(
            table, endpoints, new WebhookSigner(), Microsoft.Extensions.Options.Options.Create(Options), time,
            NullLogger<WebhookEndpointRefreshService>.Instance);
        await refresh.StartAsync(CancellationToken.None);
        await table.WaitForReadsAsync(1);
        await TickAsync(time, table, Options.RefreshInterval);   // the load was applied
        Assert.True(endpoints.IsLoaded);
        return (time, table, endpoints, refresh);
    }

    // Moves the clock one refresh interval at a time (each step fires the refresh timer once, so no tick is left pending to
    // run a refresh behind the test's back) and waits, at each step, until the refresh it started has begun its read.
    private static async Task TickAsync(FakeTimeProvider time, EndpointTable table, TimeSpan by)
    {
        for (var passed = TimeSpan.Zero; passed < by; passed += Options.RefreshInterval)
        {
            int reads = table.Reads;
            time.Advance(Options.RefreshInterval);
            await table.WaitForReadsAsync(reads + 1);
        }
    }

    private static WebhookEndpoint Row(string name, DateTimeOffset changedAt, bool disabled = false, string secret = OldSecret) => new()
    {
        Name = name,
        Url = $"https://{name}.example.com/hooks",
        Secret = secret,
        CreatedAt = Start.AddHours(-1),
        ChangedAt = changedAt,
        DisabledAt = disabled ? changedAt : null,
        DisabledReason = disabled ? "partner migrating" : null,
    };
}
