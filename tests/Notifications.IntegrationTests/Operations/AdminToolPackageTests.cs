using System.Diagnostics;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// The admin tool as operators get it: the <c>Notifications.Admin</c> .NET tool package, packed from Admin/, installed
/// into a tool path from a local feed (what scripts/admin does), and run as <c>notifications-admin</c>.
/// </summary>
[Collection("services")]
public sealed class AdminToolPackageTests
{
    [Fact]
    public async Task ToolPackage_PackedAndInstalled_NotificationsAdminRunsHelpStatusMigrateAndErrors()
    {
        string root = Directory.CreateTempSubdirectory("admin-tool-").FullName;
        try
        {
            await using var broker = await TestBroker.CreateAsync();
            string version = $"1.0.0-test.{Guid.NewGuid():N}"[..24];
            await DotnetAsync("pack", RepositoryLayout.File("Admin", "Notifications.Admin.csproj"), "-c", "Release", "-o", Path.Combine(root, "feed"),
                $"-p:Version={version}", "-nologo", "-v", "quiet");
            await DotnetAsync("tool", "install", "Notifications.Admin", "--version", version, "--tool-path", Path.Combine(root, "tools"),
                "--add-source", Path.Combine(root, "feed"), "--ignore-failed-sources");
            string tool = Path.Combine(root, "tools", "notifications-admin");

            var help = await AdminRun.ExecutableAsync(tool, "--help");
            var status = await AdminRun.ExecutableAsync(tool, "status", "--rabbitmq", broker.Options.Uri.ToString(), "--database", TestServices.PostgresConnectionString);
            var wrong = await AdminRun.ExecutableAsync(tool, "no-such-command");
            // The package carries the migrations: the test schema (migrated before the first test) has none pending.
            var migrations = await AdminRun.ExecutableAsync(tool, "migrate", "--list", "--database", TestServices.PostgresConnectionString);

            Assert.True(help.ExitCode == 0, help.Error);
            Assert.Contains("dead-letters", help.Output, StringComparison.Ordinal);
            Assert.True(status.ExitCode == 0, status.Error);
            Assert.Contains("Outbox backlog", status.Output, StringComparison.Ordinal);
            Assert.True(migrations.ExitCode == 0, migrations.Error);
            Assert.Contains("migrations built into the tool (db/postgres)", migrations.Output, StringComparison.Ordinal);
            Assert.Matches(@"\d+ applied, 0 pending\.", migrations.Output);
            Assert.Equal(2, wrong.ExitCode);
            Assert.Contains("Unrecognized command or argument 'no-such-command'", wrong.Error, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private static async Task DotnetAsync(params string[] args)
    {
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        args.ToList().ForEach(info.ArgumentList.Add);
        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        await process.WaitForExitAsync(timeout.Token);
        Assert.True(process.ExitCode == 0, $"dotnet {string.Join(' ', args)} exited {process.ExitCode}: {await output}{await error}");
    }
}
