using System.Diagnostics;
using System.Globalization;

namespace Notifications.IntegrationTests.Deployment;

/// <summary>A worker service's healthcheck as a stack file renders it, and that check run by bash on this machine.</summary>
internal static class StackHealthcheck
{
    /// <summary>The service's healthcheck: the script its <c>["CMD", "bash", "-c", script]</c> test runs.</summary>
    public static string Of(string yaml, string service)
    {
        var test = StackYaml.Block(yaml, "services", service, "healthcheck", "test").Select(l => l.Trim()).ToList();
        if (test.Count != 4 || test[0] != "- CMD" || test[1] != "- bash" || test[2] != "- -c")
            throw new InvalidOperationException($"{service}: the healthcheck is not [CMD, bash, -c, script]: {string.Join(" | ", test)}");
        string script = test[3][2..];
        return script.StartsWith('\'') ? script[1..^1].Replace("''", "'", StringComparison.Ordinal) : script;
    }

    /// <summary>Runs the check as Docker would in the worker's container, its operations port set as Metrics__Port.</summary>
    public static async Task<int> RunAsync(string script, int port)
    {
        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add(script);
        info.Environment["Metrics__Port"] = port.ToString(CultureInfo.InvariantCulture);
        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(30));
        await process.WaitForExitAsync(timeout.Token);
        await Task.WhenAll(output, error);
        return process.ExitCode;
    }
}
