using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// The broker users a deployment makes (scripts/broker-users.sh: <c>notifications-producer</c>, <c>-consumer</c>, <c>-admin</c>)
/// against the allowlist of <see cref="BrokerPermissions"/>, as the broker itself lists them (management API): in every vhost
/// where the user has permissions, exactly its role's configure/write/read regexes; no topic permission; no tag (a tag opens
/// the management API, <c>administrator</c> all of the broker). Where scripts/setup made none (a broker container), the
/// definitions the script writes are imported first, as the stacks' brokers load them. <see cref="BrokerUserDenialTests"/>
/// tries a sample of denials; this fails on any grant beyond the role's.
/// </summary>
[Collection("services")]
public sealed class BrokerUserGrantTests
{
    [Fact]
    public async Task Permissions_EachRoleUser_ExactlyItsRolesInEveryVhostNoTopicNoTag()
    {
        using var management = BrokerManagement.Create();
        await DeployedUsersAsync(management);
        var defaults = new RabbitMqOptions();
        var differences = new List<string>();

        foreach (var (user, allowed) in ((string, BrokerPermissions)[])[
                     ("notifications-producer", BrokerPermissions.Producer(defaults)), ("notifications-consumer", BrokerPermissions.Consumer(defaults)),
                     ("notifications-admin", BrokerPermissions.Admin(defaults)), ("notifications-gateway", BrokerPermissions.Gateway(defaults))])
        {
            differences.AddRange(await DifferencesAsync(management, user, allowed));
        }

        Assert.True(differences.Count == 0, string.Join(Environment.NewLine, differences));
    }

    /// <summary>
    /// The check itself, on a throwaway user holding the producer's permissions in a private vhost: with nothing more it reports
    /// nothing, and each grant planted beyond the role — a tag, a topic permission, a wider read — is reported.
    /// </summary>
    [Theory]
    [InlineData("nothing", null)]
    [InlineData("tag", ": tag management")]
    [InlineData("topic permission", ": topic permission on amq.topic")]
    [InlineData("wider read", "Read = .* }, not ")]
    public async Task Differences_OneGrantBeyondTheRole_Reported(string planted, string? reported)
    {
        using var management = BrokerManagement.Create();
        string vhost = $"grants.{Guid.NewGuid():N}"[..20];
        string user = $"grant-probe-{Guid.NewGuid():N}"[..24];
        var producer = BrokerPermissions.Producer(new RabbitMqOptions());
        await management.CreateVhostAsync(vhost);
        try
        {
            await management.CreateUserAsync(user, Guid.NewGuid().ToString("N"), vhost,
                planted == "wider read" ? producer with { Read = ".*" } : producer, tags: planted == "tag" ? "management" : "");
            if (planted == "topic permission")
            {
                await management.SetTopicPermissionAsync(vhost, user, "amq.topic");
            }

            var differences = await DifferencesAsync(management, user, producer);

            if (reported is null)
            {
                Assert.Empty(differences);
            }
            else
            {
                Assert.Contains(differences, d => d.StartsWith(user, StringComparison.Ordinal) && d.Contains(reported, StringComparison.Ordinal));
            }
        }
        finally
        {
            await management.DeleteUserAsync(user);
            await management.DeleteVhostAsync(vhost);
        }
    }

    /// <summary>What <paramref name="user"/> holds beyond <paramref name="allowed"/>, one line each.</summary>
    private static async Task<List<string>> DifferencesAsync(BrokerManagement management, string user, BrokerPermissions allowed)
    {
        string path = $"api/users/{BrokerManagement.Escape(user)}";
        var found = await management.GetJsonAsync(path) ?? throw new InvalidOperationException($"no broker user {user}");
        var permissions = (await management.GetJsonAsync($"{path}/permissions"))!.Value.EnumerateArray().ToList();
        var topics = (await management.GetJsonAsync($"{path}/topic-permissions"))!.Value.EnumerateArray().ToList();
        var differences = new List<string>();
        // Tags are a list since RabbitMQ 3.9, a comma-separated string before.
        var tags = found.GetProperty("tags") is { ValueKind: JsonValueKind.Array } list
            ? list.EnumerateArray().Select(t => t.GetString()!).ToList()
            : found.GetProperty("tags").GetString()!.Split(',', StringSplitOptions.RemoveEmptyEntries).ToList();
        differences.AddRange(tags.Select(t => $"{user}: tag {t}"));
        if (permissions.Count == 0)
        {
            differences.Add($"{user}: no permissions in any vhost");
        }

        foreach (var p in permissions)
        {
            var held = new BrokerPermissions(p.GetProperty("configure").GetString()!, p.GetProperty("write").GetString()!, p.GetProperty("read").GetString()!);
            if (held != allowed)
            {
                differences.Add($"{user} in vhost {p.GetProperty("vhost").GetString()}: {held}, not {allowed}");
            }
        }

        differences.AddRange(topics.Select(t => $"{user} in vhost {t.GetProperty("vhost").GetString()}: topic permission on {t.GetProperty("exchange").GetString()}"));
        return differences;
    }

    // scripts/setup made the role users on this machine's broker; a broker container has none: import the definitions the
    // script writes (what scripts/swarm's brokers load at boot), on the container's "/".
    private static async Task DeployedUsersAsync(BrokerManagement management)
    {
        if (TestServices.BrokerContainer is null)
        {
            return;
        }

        string secrets = Directory.CreateTempSubdirectory("broker-users-").FullName;
        try
        {
            var (exit, definitions, error) = await BashRun.RunAsync("-c", "source scripts/broker-users.sh && broker_definitions \"$1\" /", "broker-users", secrets);
            Assert.True(exit == 0, error);
            await management.ImportDefinitionsAsync(definitions);
        }
        finally
        {
            Directory.Delete(secrets, recursive: true);
        }
    }
}
