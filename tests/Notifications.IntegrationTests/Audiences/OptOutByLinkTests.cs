using System.Net;
using System.Text.RegularExpressions;
using Dapper;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Status;
using Notifications.IntegrationTests.Suppression;
using Notifications.Shared.Data.Postgres;
using Notifications.Shared.Hosting;
using Notifications.Unsubscribe;
using Npgsql;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// The one-click unsubscribe link of a mail with a category (issue 29, item 2; docs/preferences.md, "By the link"): the
/// address's subscribers opt out of that category by email, not of all bulk mail. Through the real pipeline into smtp-sink
/// and the unsubscribe process over real HTTP, each worker as its database role; and the opt-out's function as the
/// unsubscribe role, which reads no registry table itself.
/// </summary>
[Collection("services")]
public sealed partial class OptOutByLinkTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task LinkOfAMarketingMail_SubscriberOptedOutOfMarketingOnly_UnregisteredAddressUnsubscribedFromBulk()
    {
        await SeedAsync();
        long marketing = await EnqueueAsync("Ana@Example.com", "marketing", NotificationPriority.Bulk);
        long stranger = await EnqueueAsync("stranger@example.com", "marketing", NotificationPriority.Bulk);

        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        await using var consumer = await WorkerHost.StartConsumerAsync(broker, sink, SuppressionProbe.UnsubscribeSettings);
        await using var producer = await WorkerHost.StartProducerAsync(broker);
        await using var unsubscribe = await WorkerHost.StartUnsubscribeAsync(SuppressionProbe.KeySettings);
        await sink.WaitForMessagesAsync(2, Patience);
        using var http = new HttpClient { BaseAddress = unsubscribe.Get<UnsubscribeServer>().Address };

        // Ana's link: the page names the category; the POST writes her preference, no suppression entry; a repeat the same.
        string token = TokenOf(sink, marketing);
        string page = Text(await http.GetStringAsync($"/unsubscribe?token={token}"));
        Assert.Contains("Stop \u201cmarketing\u201d mail to a•••@example.com?", page, StringComparison.Ordinal);
        for (int i = 0; i < 2; i++)
        {
            var done = await SuppressionProbe.PostOneClickAsync(http, token);
            Assert.Equal(HttpStatusCode.OK, done.StatusCode);
            Assert.Contains("will get no more \u201cmarketing\u201d mail from us.", Text(await done.Content.ReadAsStringAsync()), StringComparison.Ordinal);
        }

        Assert.Equal([("ana-1", "marketing", "email", false)], await PreferencesAsync());
        Assert.Empty(await SuppressionProbe.RowsAsync());

        // An address nobody registered has no preferences: its link unsubscribes it from bulk mail, as one without a category.
        var strangerDone = await SuppressionProbe.PostOneClickAsync(http, TokenOf(sink, stranger));
        Assert.Contains("no more newsletters or other bulk mail", Text(await strangerDone.Content.ReadAsStringAsync()), StringComparison.Ordinal);
        var row = Assert.Single(await SuppressionProbe.RowsAsync());
        Assert.Equal(("stranger@example.com", "bulk"), (row.Address, row.Scope));

        // Then: Ana gets no marketing mail, bulk or not, and still gets the other categories' bulk mail.
        long nextBulk = await EnqueueAsync("ana@example.com", "marketing", NotificationPriority.Bulk);
        long nextNormal = await EnqueueAsync("ana@example.com", "marketing", NotificationPriority.Normal);
        long orders = await EnqueueAsync("ana@example.com", "orders", NotificationPriority.Bulk);
        await StatusProbe.WaitForAsync(nextBulk, "opted_out");
        await StatusProbe.WaitForAsync(nextNormal, "opted_out");
        await StatusProbe.WaitForAsync(orders, "sent");
        Assert.Equal(new[] { marketing, stranger, orders }.Order(), sink.CountByNotificationId().Keys.Order());
    }

    [Fact]
    public async Task OptOutByLink_AsTheUnsubscribeRole_EveryHolderOfTheAddressNoneForCriticalUnknownOrUnregistered()
    {
        await SeedAsync();
        await using (var services = AppRegistry.Services())
        {
            var registry = services.GetRequiredService<ISubscriberRegistry>();
            await AppRegistry.InTransactionAsync(commit: true, async tx =>
            {
                await registry.UpsertSubscriberAsync(tx, new Subscriber("bo-2"));
                await registry.AddEmailAsync(tx, "ana-1", "family@example.com");
                await registry.AddEmailAsync(tx, "bo-2", "family@example.com");
                await registry.SetPreferenceAsync(tx, "bo-2", "marketing", "email", enabled: true);
            });
        }

        await using var dataSource = NpgsqlDataSource.Create(TestRoles.ConnectionString(DatabaseRole.Unsubscribe));
        var store = new PostgresPreferenceStore(dataSource, new DatabaseOptions
        {
            Provider = DatabaseProvider.Postgres, ConnectionString = TestRoles.ConnectionString(DatabaseRole.Unsubscribe), Schema = TestDatabase.Schema,
        });

        // A shared mailbox: both of its subscribers, Bo's opt-in turned off; a repeat covers the same two rows again.
        Assert.Equal(2, await store.OptOutByLinkAsync("email", "family@example.com", "marketing", CancellationToken.None));
        Assert.Equal(2, await store.OptOutByLinkAsync("email", "family@example.com", "marketing", CancellationToken.None));
        Assert.Equal(0, await store.OptOutByLinkAsync("email", "family@example.com", "security", CancellationToken.None));
        Assert.Equal(0, await store.OptOutByLinkAsync("email", "family@example.com", "no-such-category", CancellationToken.None));
        Assert.Equal(0, await store.OptOutByLinkAsync("email", "nobody@example.com", "marketing", CancellationToken.None));
        Assert.Equal(0, await store.OptOutByLinkAsync("push", "family@example.com", "marketing", CancellationToken.None));
        Assert.Equal([("ana-1", "marketing", "email", false), ("bo-2", "marketing", "email", false)], await PreferencesAsync());
    }

    // Categories marketing and orders, critical security; Ana registered with ana@example.com.
    private static async Task SeedAsync()
    {
        await TestDatabase.CleanAsync();
        await using (var owner = await TestDatabase.OpenAsync())
        {
            await owner.ExecuteAsync($"INSERT INTO {TestDatabase.Schema}.category (name, critical) VALUES ('marketing', false), ('orders', false), ('security', true)");
        }

        await using var services = AppRegistry.Services();
        var registry = services.GetRequiredService<ISubscriberRegistry>();
        await AppRegistry.InTransactionAsync(commit: true, async tx =>
        {
            await registry.UpsertSubscriberAsync(tx, new Subscriber("ana-1"));
            await registry.AddEmailAsync(tx, "ana-1", "ana@example.com");
        });
    }

    private static Task<long> EnqueueAsync(string recipient, string category, NotificationPriority priority) =>
        TestDatabase.EnqueueAsync(new NewNotification(recipient, $"{category} for {recipient}", "Hello.") { Category = category, Priority = priority });

    private static string TokenOf(SmtpSink sink, long id)
    {
        string header = SuppressionProbe.Dump(sink, id).Headers["List-Unsubscribe"];
        var link = Link().Match(header);
        Assert.True(link.Success, header);
        return link.Groups["token"].Value;
    }

    // A page's text as a person reads it: tags dropped, entities decoded.
    private static string Text(string html) => WebUtility.HtmlDecode(Tag().Replace(html, ""));

    private static async Task<List<(string Subscriber, string Category, string Channel, bool Enabled)>> PreferencesAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        string s = TestDatabase.Schema;
        return (await connection.QueryAsync<(string, string, string, bool)>($"""
            SELECT sb.external_id, p.category, p.channel, p.enabled FROM {s}.preference AS p JOIN {s}.subscriber AS sb ON sb.id = p.subscriber_id
            ORDER BY sb.external_id, p.category, p.channel
            """)).AsList();
    }

    [GeneratedRegex("<[^>]*>")]
    private static partial Regex Tag();

    [GeneratedRegex(@"<https://mail\.example\.test/unsubscribe\?token=(?<token>[A-Za-z0-9_\-]+)>")]
    private static partial Regex Link();
}
