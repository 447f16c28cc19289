using System.Text.RegularExpressions;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;

namespace Notifications.IntegrationTests.Webhooks;

/// <summary><c>scripts/admin webhooks add|list|disable|enable|rotate-secret|subscribe|unsubscribe</c> as the built tool, its own process, against the test database.</summary>
[Collection("services")]
public sealed partial class WebhookAdminTests
{
    [Fact]
    public async Task WebhookCommands_AddListDisableEnableRotate_TableAndOutputAgree_SecretsPrintedOnlyWhenMade()
    {
        await DeleteEndpointsAsync();

        var add = await RunAsync("webhooks", "add", "billing", "http://127.0.0.1:8099/in", "--allow-private");
        Assert.Equal(0, add.ExitCode);
        string secret = Assert.Single(Secret().Matches(add.Output)).Value;
        var rotate = await RunAsync("webhooks", "rotate-secret", "billing", "--overlap", "2h");
        Assert.Equal(0, rotate.ExitCode);
        string rotated = Assert.Single(Secret().Matches(rotate.Output)).Value;
        Assert.Equal((rotated, secret), await SecretsAsync("billing"));

        var disable = await RunAsync("webhooks", "disable", "billing", "--reason", "partner migrating");
        Assert.Equal((0, "Disabled webhook endpoint billing.\n"), (disable.ExitCode, disable.Output));
        var list = await RunAsync("webhooks", "list");
        Assert.StartsWith("1 webhook endpoint\n", list.Output, StringComparison.Ordinal);
        Assert.Contains("2 secrets (previous until", list.Output, StringComparison.Ordinal);
        Assert.Contains("disabled ", list.Output, StringComparison.Ordinal);
        Assert.Contains("partner migrating", list.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("whsec_", list.Output, StringComparison.Ordinal);

        var twice = await RunAsync("webhooks", "disable", "billing");
        Assert.Equal((1, "error: webhook endpoint 'billing' is disabled already; nothing changed\n"), (twice.ExitCode, twice.Error));
        Assert.Equal(0, (await RunAsync("webhooks", "enable", "billing")).ExitCode);
        Assert.DoesNotContain("disabled", (await RunAsync("webhooks", "list")).Output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("webhooks add Billing https://hooks.example.com/in", "invalid webhook endpoint name (recipient): 'Billing'")]
    [InlineData("webhooks add billing http://hooks.example.com/in", "is plain http: only https, or http to a loopback host with --allow-private")]
    [InlineData("webhooks add billing http://127.0.0.1:8099/in", "is plain http")]
    [InlineData("webhooks add billing https://10.20.30.40/in", "resolves to 10.20.30.40, a private (RFC 1918) address: refused against server-side request forgery")]
    [InlineData("webhooks add billing https://169.254.169.254/latest", "a link-local address")]
    [InlineData("webhooks add billing https://localhost/in", "a loopback address")]
    [InlineData("webhooks add billing not-a-url", "is not an absolute")]
    [InlineData("webhooks rotate-secret billing --overlap soon", "--overlap must be a duration such as 24h, 30m, 90s or 0, not 'soon'")]
    public async Task WebhookCommands_BadArguments_Exit2WithTheReason(string command, string expected)
    {
        var (exit, _, error) = await RunAsync(command.Split(' '));

        Assert.Equal(2, exit);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("disable")]
    [InlineData("enable")]
    [InlineData("rotate-secret")]
    public async Task WebhookCommands_UnknownName_Exit1(string command)
    {
        await DeleteEndpointsAsync();

        var (exit, _, error) = await RunAsync("webhooks", command, "nobody");

        Assert.Equal((1, "error: no webhook endpoint is named 'nobody' ('webhooks list' shows them)\n"), (exit, error));
    }

    [Fact]
    public async Task WebhookCommands_SubscribeListUnsubscribe_TableAndOutputAgree()
    {
        await DeleteEndpointsAsync();
        Assert.Equal(0, (await RunAsync("webhooks", "add", "app", "http://127.0.0.1:8099/in", "--allow-private")).ExitCode);

        var subscribe = await RunAsync("webhooks", "subscribe", "app", "notification.delivered", "notification.bounced");
        Assert.Equal((0, "Subscribed webhook endpoint app: notification.delivered, notification.bounced.\n"), (subscribe.ExitCode, subscribe.Output));
        var again = await RunAsync("webhooks", "subscribe", "app", "notification.bounced");
        Assert.Equal("Nothing changed for webhook endpoint app; subscribed already: notification.bounced.\n", again.Output);
        Assert.Contains("; events: notification.bounced notification.delivered", (await RunAsync("webhooks", "list")).Output, StringComparison.Ordinal);

        var unsubscribe = await RunAsync("webhooks", "unsubscribe", "app", "notification.bounced");
        Assert.Equal((0, "Unsubscribed webhook endpoint app: notification.bounced.\n"), (unsubscribe.ExitCode, unsubscribe.Output));
        await using var connection = await TestDatabase.OpenAsync();
        Assert.Equal(["notification.delivered"], await connection.QueryAsync<string>(
            $"SELECT event_type FROM {TestDatabase.Schema}.webhook_event_subscription WHERE endpoint = 'app'"));

        var unknownType = await RunAsync("webhooks", "subscribe", "app", "notification.opened");
        Assert.Equal(2, unknownType.ExitCode);
        Assert.Contains("unknown event type 'notification.opened': name one or more of notification.delivered, ", unknownType.Error, StringComparison.Ordinal);
        var unknownEndpoint = await RunAsync("webhooks", "subscribe", "nobody", "notification.delivered");
        Assert.Equal((1, "error: no webhook endpoint is named 'nobody' ('webhooks list' shows them)\n"), (unknownEndpoint.ExitCode, unknownEndpoint.Error));
    }

    private static async Task DeleteEndpointsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.webhook_endpoint");
    }

    private static async Task<(string Secret, string? Previous)> SecretsAsync(string name)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleAsync<(string, string?)>(
            $"SELECT secret, previous_secret FROM {TestDatabase.Schema}.webhook_endpoint WHERE name = @name", new { name });
    }

    private static Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] args) =>
        AdminRun.ProcessAsync([.. args, "--database", TestServices.PostgresConnectionString]);

    [GeneratedRegex("whsec_[A-Za-z0-9+/]{43}=")]
    private static partial Regex Secret();
}
