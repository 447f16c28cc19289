using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>
/// <c>scripts/admin categories put|list</c>, <c>subscribers show|opt-out|opt-in|delete</c> and <c>topics list</c> in process, as the admin role, on
/// the real PostgreSQL: what they write is read back from the tables, what they print from the registry an app left.
/// </summary>
[Collection("services")]
public sealed class AudienceAdminTests
{
    [Fact]
    public async Task CategoriesPut_CriticalWithDefaults_InTheTablesAndListed()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();

        var put = await AdminRun.InProcessAsync(broker, "", "categories", "put", "security", "--critical", "--description", "Sign-in codes", "--default", "push=off");
        var again = await AdminRun.InProcessAsync(broker, "", "categories", "put", "marketing", "--default", "email=on", "--default", "push=off");
        var list = await AdminRun.InProcessAsync(broker, "", "categories", "list");

        Assert.True(put.ExitCode == 0, put.Error);
        Assert.Contains("Put category security (critical: cannot be opted out; defaults: email on, push off, live on)", put.Output, StringComparison.Ordinal);
        Assert.Equal(0, again.ExitCode);
        await using var connection = await TestDatabase.OpenAsync();
        var defaults = (await connection.QueryAsync<(string, string, bool)>(
            $"SELECT category, channel, enabled FROM {TestDatabase.Schema}.category_default ORDER BY category, channel")).ToList();
        Assert.Equal([("marketing", "email", true), ("marketing", "push", false), ("security", "push", false)], defaults);
        Assert.Contains("2 categories", list.Output, StringComparison.Ordinal);
        Assert.Matches(@"security\s+critical\s+email on, push off, live on\s+Sign-in codes", list.Output);
    }

    [Fact]
    public async Task CategoriesPut_AgainWithFewerDefaults_ReplacesThem()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();

        await AdminRun.InProcessAsync(broker, "", "categories", "put", "orders", "--critical", "--default", "push=off");
        var replaced = await AdminRun.InProcessAsync(broker, "", "categories", "put", "orders");

        Assert.Equal(0, replaced.ExitCode);
        await using var connection = await TestDatabase.OpenAsync();
        Assert.False(await connection.ExecuteScalarAsync<bool>($"SELECT critical FROM {TestDatabase.Schema}.category WHERE name = 'orders'"));
        Assert.Equal(0, await connection.ExecuteScalarAsync<long>($"SELECT count(*) FROM {TestDatabase.Schema}.category_default"));
    }

    [Theory]
    [InlineData("Security", "invalid category name: 'Security'")]
    [InlineData("orders --default sms=on", "invalid channel: 'sms'")]
    [InlineData("orders --default push=maybe", "expected CHANNEL=on or CHANNEL=off")]
    [InlineData("orders --default push=on --default push=off", "push is named twice")]
    public async Task CategoriesPut_BadInput_Exit2WithTheRule(string arguments, string expected)
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();

        var (exit, _, error) = await AdminRun.InProcessAsync(broker, "", ["categories", "put", .. arguments.Split(' ')]);

        Assert.Equal(2, exit);
        Assert.Contains(expected, error, StringComparison.Ordinal);
        Assert.Equal(0, await db.CountAsync("category"));
    }

    [Fact]
    public async Task SubscribersShow_ARegisteredPerson_EveryContactPointTopicAndPreference()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await AdminRun.InProcessAsync(broker, "", "categories", "put", "marketing");
        await using (var connection = await TestDatabase.OpenAsync())
        {
            string s = TestDatabase.Schema;
            await connection.ExecuteAsync($"""
                INSERT INTO {s}.subscriber (external_id, locale, time_zone) VALUES ('ana-1', 'pt-BR', 'Europe/Lisbon');
                INSERT INTO {s}.contact_point (subscriber_id, channel, address, app_id, dead_at, dead_reason)
                SELECT id, 'push', 'fcm:tok-1', 'com.example.shop', now(), 'push fcm permanent failure: 404 UNREGISTERED' FROM {s}.subscriber
                UNION ALL SELECT id, 'email', 'ana@example.com', NULL, NULL, NULL FROM {s}.subscriber;
                INSERT INTO {s}.topic (name) VALUES ('breaking-news'), ('empty');
                INSERT INTO {s}.subscription (topic_id, subscriber_id) SELECT t.id, x.id FROM {s}.topic AS t, {s}.subscriber AS x WHERE t.name = 'breaking-news';
                INSERT INTO {s}.preference (subscriber_id, category, channel, enabled) SELECT id, 'marketing', 'email', false FROM {s}.subscriber;
                """);
        }

        var show = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "ana-1");
        var topics = await AdminRun.InProcessAsync(broker, "", "topics", "list");

        Assert.True(show.ExitCode == 0, show.Error);
        Assert.Contains("Subscriber ana-1: locale pt-BR, time zone Europe/Lisbon", show.Output, StringComparison.Ordinal);
        Assert.Contains("2 contact points", show.Output, StringComparison.Ordinal);
        Assert.Matches(@"email\s+ana@example.com; alive", show.Output);
        Assert.Matches(@"push\s+fcm:tok-1 \(app com.example.shop\); dead since .* UTC: push fcm permanent failure: 404 UNREGISTERED", show.Output);
        Assert.Contains("1 topic: breaking-news", show.Output, StringComparison.Ordinal);
        Assert.Matches(@"marketing\s+email\s+opted out", show.Output);
        Assert.Equal(0, topics.ExitCode);
        Assert.Contains("2 topics", topics.Output, StringComparison.Ordinal);
        Assert.Matches(@"breaking-news\s+1 subscriber\s", topics.Output);
        Assert.Matches(@"empty\s+0 subscribers", topics.Output);
    }

    [Fact]
    public async Task SubscribersShow_UnknownOrBadText_Exit1WithWhy()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();

        var unknown = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "nobody");
        var bad = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "has space");
        var control = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "a\u0007b");

        Assert.Equal((1, 1, 1), (unknown.ExitCode, bad.ExitCode, control.ExitCode));
        Assert.Contains("not found: no subscriber has the id or address 'nobody'", unknown.Error, StringComparison.Ordinal);
        Assert.Contains("not found: no subscriber has the id or address 'has space'", bad.Error, StringComparison.Ordinal);
        Assert.Contains("not found: no subscriber id or address is like that", control.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SubscribersShow_ByEmailOrPushRecipient_TheSameSubscriber_ASharedAddressListsTheIds()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using (var connection = await TestDatabase.OpenAsync())
        {
            string s = TestDatabase.Schema;
            await connection.ExecuteAsync($"""
                INSERT INTO {s}.subscriber (external_id) VALUES ('bo-1'), ('bo-2');
                INSERT INTO {s}.contact_point (subscriber_id, channel, address, app_id)
                SELECT id, 'push', 'fcm:tok-bo', 'com.example.shop' FROM {s}.subscriber WHERE external_id = 'bo-1'
                UNION ALL SELECT id, 'email', 'bo@example.com', NULL FROM {s}.subscriber WHERE external_id = 'bo-1'
                UNION ALL SELECT id, 'email', 'family@example.com', NULL FROM {s}.subscriber;
                """);
        }

        var byEmail = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "Bo@Example.com");
        var byToken = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "fcm:tok-bo");
        var shared = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "family@example.com");

        Assert.True(byEmail.ExitCode == 0, byEmail.Error);
        Assert.StartsWith("Subscriber bo-1:", byEmail.Output, StringComparison.Ordinal);
        Assert.Equal(byEmail.Output, byToken.Output);
        Assert.Equal(1, shared.ExitCode);
        Assert.Contains("2 subscribers share that address: ", shared.Error, StringComparison.Ordinal);
        Assert.Contains("bo-1", shared.Error, StringComparison.Ordinal);
        Assert.Contains("bo-2", shared.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SubscribersOptOutAndIn_ForThePerson_RowWrittenCriticalRefusedUnknownsExit1()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await AdminRun.InProcessAsync(broker, "", "categories", "put", "marketing");
        await AdminRun.InProcessAsync(broker, "", "categories", "put", "security", "--critical");
        await using var connection = await TestDatabase.OpenAsync();
        string s = TestDatabase.Schema;
        await connection.ExecuteAsync($"INSERT INTO {s}.subscriber (external_id) VALUES ('ana-1')");
        async Task<List<(string, string, bool)>> PreferencesAsync() =>
            (await connection.QueryAsync<(string, string, bool)>($"SELECT category, channel, enabled FROM {s}.preference ORDER BY category, channel")).ToList();

        var optOut = await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-out", "ana-1", "marketing", "email");
        Assert.True(optOut.ExitCode == 0, optOut.Error);
        Assert.Contains("Subscriber ana-1 opted out of category marketing on email.", optOut.Output, StringComparison.Ordinal);
        Assert.Equal([("marketing", "email", false)], await PreferencesAsync());

        var optIn = await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-in", "ana-1", "marketing", "email");
        Assert.Equal(0, optIn.ExitCode);
        Assert.Equal([("marketing", "email", true)], await PreferencesAsync());

        var critical = await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-out", "ana-1", "security", "email");
        Assert.Equal(2, critical.ExitCode);
        Assert.Contains("category 'security' is critical: nobody can be opted out of it", critical.Error, StringComparison.Ordinal);
        Assert.Equal(0, (await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-in", "ana-1", "security", "push")).ExitCode);
        Assert.Equal([("marketing", "email", true), ("security", "push", true)], await PreferencesAsync());

        var nobody = await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-out", "nobody", "marketing", "email");
        var noCategory = await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-out", "ana-1", "newsletter", "email");
        var badChannel = await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-out", "ana-1", "marketing", "sms");
        Assert.Equal((1, 1, 2), (nobody.ExitCode, noCategory.ExitCode, badChannel.ExitCode));
        Assert.Contains("there is no subscriber 'nobody'", nobody.Error, StringComparison.Ordinal);
        Assert.Contains("there is no category 'newsletter' (scripts/admin categories put newsletter)", noCategory.Error, StringComparison.Ordinal);
        Assert.Contains("invalid channel: 'sms'", badChannel.Error, StringComparison.Ordinal);
        Assert.Equal([("marketing", "email", true), ("security", "push", true)], await PreferencesAsync());
    }

    [Fact]
    public async Task SubscribersDelete_AfterConfirmation_ThePersonAndAllOfItGoneOthersStay()
    {
        var db = await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await AdminRun.InProcessAsync(broker, "", "categories", "put", "marketing");
        await using (var connection = await TestDatabase.OpenAsync())
        {
            string s = TestDatabase.Schema;
            await connection.ExecuteAsync($"""
                INSERT INTO {s}.subscriber (external_id) VALUES ('ana-1'), ('bo-2');
                INSERT INTO {s}.contact_point (subscriber_id, channel, address)
                SELECT id, 'email', external_id || '@example.com' FROM {s}.subscriber
                UNION ALL SELECT id, 'push', 'fcm:tok-ana' FROM {s}.subscriber WHERE external_id = 'ana-1';
                INSERT INTO {s}.topic (name) VALUES ('breaking-news');
                INSERT INTO {s}.subscription (topic_id, subscriber_id) SELECT t.id, x.id FROM {s}.topic AS t, {s}.subscriber AS x WHERE x.external_id = 'ana-1';
                INSERT INTO {s}.preference (subscriber_id, category, channel, enabled) SELECT id, 'marketing', 'email', false FROM {s}.subscriber WHERE external_id = 'ana-1';
                """);
        }

        var declined = await AdminRun.InProcessAsync(broker, "no\n", "subscribers", "delete", "ana-1");
        Assert.Equal(1, declined.ExitCode);
        Assert.Contains("Aborted: nothing was deleted", declined.Error, StringComparison.Ordinal);
        Assert.Equal(2, await db.CountAsync("subscriber"));

        var deleted = await AdminRun.InProcessAsync(broker, "yes\n", "subscribers", "delete", "ana-1");
        Assert.True(deleted.ExitCode == 0, deleted.Error);
        Assert.Contains("This erases subscriber ana-1", deleted.Output, StringComparison.Ordinal);
        Assert.Contains("Deleted subscriber ana-1 with 2 contact point(s), 1 subscription(s) and 1 preference(s).", deleted.Output, StringComparison.Ordinal);
        Assert.Equal((1L, 1L, 0L, 0L, 1L), (await db.CountAsync("subscriber"), await db.CountAsync("contact_point"), await db.CountAsync("subscription"),
            await db.CountAsync("preference"), await db.CountAsync("topic")));

        var again = await AdminRun.InProcessAsync(broker, "", "subscribers", "delete", "ana-1", "--yes");
        Assert.Equal(1, again.ExitCode);
        Assert.Contains("there is no subscriber 'ana-1'", again.Error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Help_EachAudienceCommand_SaysWhatItDoes()
    {
        await using var broker = await TestBroker.CreateAsync();

        var categories = await AdminRun.InProcessAsync(broker, "", "categories", "put", "--help");
        var subscribers = await AdminRun.InProcessAsync(broker, "", "subscribers", "show", "--help");
        var topics = await AdminRun.InProcessAsync(broker, "", "topics", "list", "--help");
        var optOut = await AdminRun.InProcessAsync(broker, "", "subscribers", "opt-out", "--help");
        var delete = await AdminRun.InProcessAsync(broker, "", "subscribers", "delete", "--help");

        Assert.Contains("CHANNEL=on|off", categories.Output, StringComparison.Ordinal);
        Assert.Contains("--critical", categories.Output, StringComparison.Ordinal);
        Assert.Contains("contact points", subscribers.Output, StringComparison.Ordinal);
        Assert.Contains("--limit", topics.Output, StringComparison.Ordinal);
        Assert.Contains("refused for a critical category", optOut.Output, StringComparison.Ordinal);
        Assert.Contains("<channel>", optOut.Output, StringComparison.Ordinal);
        Assert.Contains("--yes", delete.Output, StringComparison.Ordinal);
        Assert.Contains("The suppression list and delivery records stay", delete.Output, StringComparison.Ordinal);
    }
}
