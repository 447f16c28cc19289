using System.Diagnostics;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// tests/Notifications.OidcProvider as a process of its own on a free loopback port: the console's client registered with
/// the console's callback, a viewer and an operator with random passwords. Killed on dispose.
/// </summary>
internal sealed class OidcProviderProcess : IAsyncDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);
    private readonly Process _process;

    private OidcProviderProcess(Process process, Uri authority, string clientSecret)
    {
        _process = process;
        Authority = authority;
        ClientSecret = clientSecret;
    }

    public Uri Authority { get; }

    public const string ClientId = "notifications-console";

    public string ClientSecret { get; }

    public static ProviderAccount Viewer { get; } = new("vera", Secret(), "viewer");

    public static ProviderAccount Operator { get; } = new("otto", Secret(), "operator");

    public static async Task<OidcProviderProcess> StartAsync(Uri redirectUri)
    {
        string clientSecret = Secret();
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in (string[])[RepositoryLayout.OidcProviderDll(), "--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning",
                     $"--Provider:ClientId={ClientId}", $"--Provider:ClientSecret={clientSecret}", $"--Provider:RedirectUri={redirectUri}"])
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (account, i) in new[] { Viewer, Operator }.Select((a, i) => (a, i)))
        {
            start.ArgumentList.Add($"--Provider:Users:{i}:Name={account.Name}");
            start.ArgumentList.Add($"--Provider:Users:{i}:Password={account.Password}");
            start.ArgumentList.Add($"--Provider:Users:{i}:Role={account.Role}");
        }

        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var process = new Process { StartInfo = start };
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data?.StartsWith("listening on ", StringComparison.Ordinal) == true)
            {
                listening.TrySetResult(new Uri(e.Data["listening on ".Length..].Split(' ')[0]));
            }
        };
        process.ErrorDataReceived += (_, e) => ServiceLog.Note("OIDC provider", e.Data ?? "");
        process.Exited += (_, _) => listening.TrySetException(new InvalidOperationException($"the OIDC provider exited ({process.ExitCode}) before listening"));
        process.EnableRaisingEvents = true;
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var authority = await listening.Task.WaitAsync(Patience);
        return new OidcProviderProcess(process, authority, clientSecret);
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        await _process.WaitForExitAsync();
        _process.Dispose();
    }

    private static string Secret() => Convert.ToHexStringLower(System.Security.Cryptography.RandomNumberGenerator.GetBytes(16));
}
