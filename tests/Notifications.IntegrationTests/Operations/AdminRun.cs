using System.Diagnostics;
using Notifications.Admin;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Operations;

/// <summary>Runs the admin command line against a test broker's queues and the test database: in process, or as the built tool.</summary>
internal static class AdminRun
{
    public static Task<(int ExitCode, string Output, string Error)> InProcessAsync(TestBroker broker, string input, params string[] args) =>
        InProcessAsync(broker, new Dictionary<string, string?>(), input, args);

    /// <summary>As above, with <paramref name="extra"/> configuration (e.g. <c>Retention:BatchSize</c>).</summary>
    public static async Task<(int ExitCode, string Output, string Error)> InProcessAsync(
        TestBroker broker, IReadOnlyDictionary<string, string?> extra, string input, params string[] args)
    {
        var output = new StringWriter();
        var error = new StringWriter();
        var settings = new Dictionary<string, string?>(broker.Configuration())
        {
            ["Database:ConnectionString"] = TestRoles.ConnectionString(DatabaseRole.Admin),
            ["Database:Schema"] = TestDatabase.Schema,
        };
        foreach (var (key, value) in extra)
        {
            settings[key] = value;
        }

        int exit = await AdminApp.RunAsync(args, new AdminConsole(new StringReader(input), output, error), settings);
        return (exit, output.ToString(), error.ToString());
    }

    /// <summary>The built tool as its own process (the real Program, exit code and streams), with nothing from the shell's environment.</summary>
    public static Task<(int ExitCode, string Output, string Error)> ProcessAsync(params string[] args) =>
        RunAsync("dotnet", [RepositoryLayout.WorkerDll("Admin"), .. args]);

    /// <summary>An installed tool (e.g. <c>notifications-admin</c> from the tool package) the same way.</summary>
    public static Task<(int ExitCode, string Output, string Error)> ExecutableAsync(string executable, params string[] args) =>
        RunAsync(executable, args);

    private static async Task<(int ExitCode, string Output, string Error)> RunAsync(string fileName, string[] args)
    {
        var info = new ProcessStartInfo(fileName) { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false };
        args.ToList().ForEach(info.ArgumentList.Add);
        foreach (string key in info.Environment.Keys.Where(k => k.StartsWith("RabbitMq__", StringComparison.Ordinal) || k.StartsWith("Database__", StringComparison.Ordinal)).ToList())
        {
            info.Environment.Remove(key);
        }

        using var process = Process.Start(info)!;
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1));
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await output, await error);
    }
}
