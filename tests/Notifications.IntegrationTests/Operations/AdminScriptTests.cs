using System.Diagnostics;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Operations;

/// <summary>
/// <c>scripts/admin</c> as an operator runs it right after <c>git clone</c>: no <c>Admin/bin</c>, no
/// <c>.run/services.env</c>, no installed tool. The repository's files (tracked and new, as a commit would hold them)
/// are copied to an empty directory, so the script packs and installs the tool there from nothing, once.
/// </summary>
[Collection("services")]
public sealed class AdminScriptTests
{
    // What scripts/admin and `dotnet pack Admin` read (db/: the migrations the tool carries); nothing else is needed.
    private static readonly string[] Paths =
        ["scripts/admin", "scripts/lib.sh", "Admin", "Shared", "db", "global.json", "Directory.Build.props", "Directory.Packages.props", ".editorconfig"];

    [Fact]
    public async Task AdminScript_FreshClone_InstallsTheToolOnceAndAnswers()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        string clone = await FreshCloneAsync();
        try
        {
            var help = await RunAsync(clone, new Dictionary<string, string>(), "--help");
            var environment = broker.Configuration().ToDictionary(kv => kv.Key.Replace(":", "__", StringComparison.Ordinal), kv => kv.Value ?? "");
            environment["Database__ConnectionString"] = TestServices.PostgresConnectionString;
            environment["Database__Schema"] = TestDatabase.Schema;
            var status = await RunAsync(clone, environment, "status");

            Assert.True(help.ExitCode == 0, $"exit {help.ExitCode}: {help.Output}{help.Error}");
            Assert.Contains("packing and installing the admin tool", help.Error, StringComparison.Ordinal);
            Assert.Contains("dotnet pack Admin/Notifications.Admin.csproj", help.Error, StringComparison.Ordinal);
            Assert.Contains("dead-letters", help.Output, StringComparison.Ordinal);
            string installed = Path.Combine(clone, ".run", "admin-tool");
            Assert.Single(Directory.GetFiles(installed, "notifications-admin", SearchOption.AllDirectories));
            Assert.True(status.ExitCode == 0, $"exit {status.ExitCode}: {status.Output}{status.Error}");
            Assert.DoesNotContain("packing", status.Error, StringComparison.Ordinal);
            Assert.DoesNotContain("dotnet build", status.Error, StringComparison.Ordinal);
            Assert.Matches(@"Outbox backlog\s+0 rows", status.Output);
            Assert.Contains($"  {broker.Options.DeadLetterQueue}", status.Output, StringComparison.Ordinal);
        }
        finally
        {
            Directory.Delete(clone, recursive: true);
        }
    }

    // The files git would hand a fresh clone (tracked, plus new files not ignored), never bin/, obj/ or .run/.
    private static async Task<string> FreshCloneAsync()
    {
        string clone = Directory.CreateTempSubdirectory("notifications-admin-clone-").FullName;
        var files = await GitAsync(["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", .. Paths]);
        foreach (string file in files.Split('\0', StringSplitOptions.RemoveEmptyEntries).Where(f => File.Exists(RepositoryLayout.File(f))))
        {
            string target = Path.Combine(clone, file);
            Directory.CreateDirectory(Path.GetDirectoryName(target)!);
            File.Copy(RepositoryLayout.File(file), target);
        }

        return clone;
    }

    private static async Task<string> GitAsync(string[] args)
    {
        var info = new ProcessStartInfo("git") { WorkingDirectory = RepositoryLayout.Root, RedirectStandardOutput = true, UseShellExecute = false };
        args.ToList().ForEach(info.ArgumentList.Add);
        using var process = Process.Start(info)!;
        string output = await process.StandardOutput.ReadToEndAsync();
        await process.WaitForExitAsync();
        return process.ExitCode == 0 ? output : throw new InvalidOperationException($"git {string.Join(' ', args)} exited {process.ExitCode}");
    }

    // scripts/admin run the way an operator runs it, with no RabbitMq__/Database__ setting from the test's own environment.
    private static async Task<(int ExitCode, string Output, string Error)> RunAsync(string clone, Dictionary<string, string> environment, params string[] args)
    {
        var info = new ProcessStartInfo("bash")
        {
            WorkingDirectory = clone,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add("scripts/admin");
        args.ToList().ForEach(info.ArgumentList.Add);
        foreach (string key in info.Environment.Keys.Where(k => k.StartsWith("RabbitMq__", StringComparison.Ordinal) || k.StartsWith("Database__", StringComparison.Ordinal)).ToList())
        {
            info.Environment.Remove(key);
        }

        foreach (var (key, value) in environment)
        {
            info.Environment[key] = value;
        }

        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(5));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await output, await error);
    }
}
