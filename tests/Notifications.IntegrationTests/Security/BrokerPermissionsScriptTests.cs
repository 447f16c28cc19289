using Notifications.IntegrationTests.Infrastructure;
using Notifications.Shared.Hosting;
using Notifications.Shared.Messaging;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// scripts/broker-users.sh (what scripts/setup, scripts/cluster and scripts/swarm give the broker users) writes the same
/// regexes as <see cref="BrokerPermissions"/> (what the denial tests prove), for the default names and for others.
/// </summary>
public sealed class BrokerPermissionsScriptTests
{
    [Theory]
    [InlineData("producer", "notifications", "notifications")]
    [InlineData("consumer", "notifications", "notifications")]
    [InlineData("admin", "notifications", "notifications")]
    [InlineData("producer", "mail.x", "mail.work")]
    [InlineData("consumer", "mail.x", "mail.work")]
    [InlineData("admin", "mail.x", "mail.work")]
    [InlineData("gateway", "notifications", "notifications")]
    [InlineData("gateway", "mail.x", "mail.work")]
    public async Task BrokerPermissions_ScriptAndCode_SameRegexes(string role, string exchange, string queue)
    {
        var options = new RabbitMqOptions { Exchange = exchange, Queue = queue };
        var expected = role switch
        {
            "producer" => BrokerPermissions.Producer(options),
            "consumer" => BrokerPermissions.Consumer(options),
            "gateway" => BrokerPermissions.Gateway(options),
            _ => BrokerPermissions.Admin(options),
        };

        var (exit, output, error) = await BashRun.RunAsync("-c", "source scripts/broker-users.sh && broker_permissions \"$@\"", "broker-users", role, exchange, queue);

        Assert.True(exit == 0, error);
        Assert.Equal([expected.Configure, expected.Write, expected.Read], output.TrimEnd('\n').Split('\n'));
    }
}
