using System.ComponentModel;
using System.Diagnostics;

namespace Notifications.IntegrationTests.Deployment;

/// <summary>Runs the docker CLI. <c>docker stack config</c> needs only the CLI, no engine.</summary>
internal static class DockerCli
{
    public static Task<(int ExitCode, string Output, string Error)> RunAsync(params string[] arguments) =>
        RunAsync(new Dictionary<string, string>(), arguments);

    /// <summary>Runs docker with these variables added to its environment (e.g. a stack file's interpolations).</summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunAsync(IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        var info = new ProcessStartInfo("docker") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        arguments.ToList().ForEach(info.ArgumentList.Add);
        foreach (var (name, value) in environment)
        {
            info.Environment[name] = value;
        }

        Process process;
        try
        {
            process = Process.Start(info)!;
        }
        catch (Win32Exception ex)
        {
            throw new InvalidOperationException(
                "The docker CLI is not on PATH. Install it (Debian: apt-get install docker.io, or docker-ce-cli); "
                + "no Docker engine is needed, `docker stack config` only renders the stack file.", ex);
        }

        using (process)
        using (var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(1)))
        {
            var output = process.StandardOutput.ReadToEndAsync(timeout.Token);
            var error = process.StandardError.ReadToEndAsync(timeout.Token);
            await process.WaitForExitAsync(timeout.Token);
            return (process.ExitCode, await output, await error);
        }
    }
}
