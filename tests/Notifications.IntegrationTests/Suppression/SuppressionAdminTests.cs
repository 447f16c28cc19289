using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Operations;

namespace Notifications.IntegrationTests.Suppression;

/// <summary><c>scripts/admin suppression add|remove|list</c> as the built tool, its own process, against the test database.</summary>
[Collection("services")]
public sealed class SuppressionAdminTests
{
    [Fact]
    public async Task SuppressionCommands_AddListRemove_TableAndOutputAgree()
    {
        await TestDatabase.CleanAsync();

        var add = await RunAsync("suppression", "add", "User@Example.com", "--reason", "manual", "--all-mail", "--note", "asked by phone");
        Assert.Equal((0, "Suppressed user@example.com (manual, all mail).\n"), (add.ExitCode, add.Output));
        var domain = await RunAsync("suppression", "add", "@Example.org", "--reason", "complaint");
        Assert.Contains("Suppressed @example.org (complaint, bulk mail only", domain.Output, StringComparison.Ordinal);
        var again = await RunAsync("suppression", "add", "user@example.com");
        Assert.Equal(0, again.ExitCode);
        Assert.Contains("already suppressed", again.Output, StringComparison.Ordinal);

        var rows = await SuppressionProbe.RowsAsync();
        Assert.Equal([("@example.org", "complaint", "bulk", null, false), ("user@example.com", "manual", "all", "asked by phone", false)], rows);

        var list = await RunAsync("suppression", "list");
        Assert.StartsWith("2 suppression entries\n", list.Output, StringComparison.Ordinal);
        Assert.Matches(@"user@example\.com\s+manual\s+all\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+asked by phone", list.Output);
        var complaints = await RunAsync("suppression", "list", "--reason", "complaint");
        Assert.StartsWith("1 suppression entry with reason complaint\n", complaints.Output, StringComparison.Ordinal);
        Assert.DoesNotContain("user@example.com", complaints.Output, StringComparison.Ordinal);

        var remove = await RunAsync("suppression", "remove", "USER@example.com");
        Assert.Equal((0, "Removed user@example.com from the suppression list.\n"), (remove.ExitCode, remove.Output));
        var twice = await RunAsync("suppression", "remove", "user@example.com");
        Assert.Equal((1, "error: user@example.com is not on the suppression list\n"), (twice.ExitCode, twice.Error));
        Assert.StartsWith("1 suppression entry\n", (await RunAsync("suppression", "list")).Output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SuppressionCommands_PushToken_KeptAndMatchedExactly()
    {
        await TestDatabase.CleanAsync();
        const string Token = "fcm:dXNlcjE:APA91bHvQ-Case";

        var add = await RunAsync("suppression", "add", Token, "--reason", "unregistered");
        Assert.Equal(0, add.ExitCode);
        Assert.Contains($"Suppressed {Token} (unregistered", add.Output, StringComparison.Ordinal);
        var list = await RunAsync("suppression", "list", "--reason", "unregistered");
        Assert.Matches(@"fcm:dXNlcjE:APA91bHvQ-Case\s+unregistered", list.Output);

        // The same token in other case is another device: not on the list.
        var other = await RunAsync("suppression", "remove", Token.ToLowerInvariant());
        Assert.Equal(1, other.ExitCode);
        var remove = await RunAsync("suppression", "remove", Token, "--note", "device replaced");
        Assert.Equal((0, $"Removed {Token} from the suppression list (device replaced).\n"), (remove.ExitCode, remove.Output));
    }

    [Theory]
    [InlineData("suppression add fcm:bad*token", "address: invalid FCM registration token")]
    [InlineData("suppression add nobody", "address: 'nobody' is neither an address (user@example.com), a domain (@example.com) nor a push recipient (fcm:<token>, apns:<token>)")]
    [InlineData("suppression add a@example.com --reason bored", "--reason must be one of hard_bounce, complaint, unsubscribed, manual, unregistered, soft_bounce, not 'bored'")]
    [InlineData("suppression list --limit 0", "--limit must be a whole number of at least 1, not '0'")]
    [InlineData("suppression remove", "Required argument missing for command: 'remove'")]
    [InlineData("suppression add @", "address: '@' has no domain after '@'")]
    public async Task SuppressionCommands_BadArguments_Exit2WithTheReason(string command, string expected)
    {
        var (exit, _, error) = await RunAsync(command.Split(' '));

        Assert.Equal(2, exit);
        Assert.Contains(expected, error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SuppressionHelp_EveryCommand_Described()
    {
        var help = await AdminRun.ProcessAsync("suppression", "--help");
        var add = await AdminRun.ProcessAsync("suppression", "add", "--help");

        Assert.Equal(0, help.ExitCode);
        Assert.Contains("add", help.Output, StringComparison.Ordinal);
        Assert.Contains("remove", help.Output, StringComparison.Ordinal);
        Assert.Contains("list", help.Output, StringComparison.Ordinal);
        Assert.Contains("--all-mail", add.Output, StringComparison.Ordinal);
        Assert.Contains("bulk mail only unless --all-mail", add.Output, StringComparison.Ordinal);
    }

    private static Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] args) =>
        AdminRun.ProcessAsync([.. args, "--database", TestServices.PostgresConnectionString]);
}
