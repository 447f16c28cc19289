using System.Diagnostics;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>Runs <c>bash</c> with arguments (a script of the repository, or <c>-c</c> and a command) from the repository's root.</summary>
internal static class BashRun
{
    /// <summary>Its exit code, standard output and standard error; a run longer than a minute is killed and fails the test.</summary>
    public static async Task<(int Exit, string Output, string Error)> RunAsync(params string[] arguments)
    {
        var info = new ProcessStartInfo("bash")
        {
            RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false, WorkingDirectory = RepositoryLayout.Root,
        };
        foreach (string argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1));
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"bash {string.Join(' ', arguments)} did not end within a minute");
        }

        return (process.ExitCode, await output, await error);
    }
}
