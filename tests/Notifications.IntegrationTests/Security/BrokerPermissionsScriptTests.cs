using System.Diagnostics;
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
    public async Task BrokerPermissions_ScriptAndCode_SameRegexes(string role, string exchange, string queue)
    {
        var options = new RabbitMqOptions { Exchange = exchange, Queue = queue };
        var expected = role switch
        {
            "producer" => BrokerPermissions.Producer(options),
            "consumer" => BrokerPermissions.Consumer(options),
            _ => BrokerPermissions.Admin(options),
        };

        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryLayout.Root };
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add("source scripts/broker-users.sh && broker_permissions \"$@\"");
        info.ArgumentList.Add("broker-users");
        foreach (string argument in (string[])[role, exchange, queue])
        {
            info.ArgumentList.Add(argument);
        }

        using var bash = Process.Start(info)!;
        string output = await bash.StandardOutput.ReadToEndAsync();
        string error = await bash.StandardError.ReadToEndAsync();
        await bash.WaitForExitAsync();

        Assert.True(bash.ExitCode == 0, error);
        Assert.Equal([expected.Configure, expected.Write, expected.Read], output.TrimEnd('\n').Split('\n'));
    }
}
