using System.Diagnostics;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Shutdown;

/// <summary>The workers as an operator meets them first: --help, and a bad configuration.</summary>
public sealed class WorkerCommandLineTests
{
    [Theory]
    [InlineData("Producer")]
    [InlineData("Consumer")]
    [InlineData("Baseline")]
    public async Task Help_PrintsUsageAndExitsZero(string worker)
    {
        var (exitCode, output) = await RunAsync(worker, "--help");

        Assert.Equal(0, exitCode);
        Assert.Contains($"Usage: dotnet Notifications.{worker}.dll", output, StringComparison.Ordinal);
        Assert.Contains("Section__Key", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Producer")]
    [InlineData("Consumer")]
    [InlineData("Baseline")]
    public async Task Start_MissingConnectionString_ExitsTwoNamingTheKey(string worker)
    {
        var (exitCode, output) = await RunAsync(worker, "--Database:ConnectionString=");

        Assert.Equal(2, exitCode);
        Assert.Contains("error: invalid configuration:", output, StringComparison.Ordinal);
        Assert.Contains("ConnectionString", output, StringComparison.Ordinal);
    }

    /// <summary>Runs the built worker with <paramref name="arguments"/> and no configuration from the environment.</summary>
    internal static async Task<(int ExitCode, string Output)> RunAsync(string worker, params string[] arguments)
    {
        string dll = worker == "Baseline" ? RepositoryLayout.BaselineDll() : RepositoryLayout.WorkerDll(worker);
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = Path.GetDirectoryName(dll)! };
        info.ArgumentList.Add(dll);
        foreach (string argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (string key in info.Environment.Keys.Where(k => k.Contains("__", StringComparison.Ordinal)).ToList())
        {
            info.Environment.Remove(key);
        }

        using var process = Process.Start(info)!;
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        var stdout = process.StandardOutput.ReadToEndAsync(timeout.Token);
        var stderr = process.StandardError.ReadToEndAsync(timeout.Token);
        await process.WaitForExitAsync(timeout.Token);
        return (process.ExitCode, await stdout + await stderr);
    }
}
