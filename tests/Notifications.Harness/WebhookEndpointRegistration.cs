using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Notifications.Harness;

/// <summary>
/// Registers a webhook run's endpoint as an operator does, with the admin tool: <c>webhooks add NAME URL --allow-private</c>
/// (the receiver listens on loopback, which the endpoint check refuses unless allowed), and reads the signing secret
/// (<c>whsec_...</c>) from what the tool prints, for the receiver to verify with. The secret is not written to the run's files.
/// </summary>
internal static partial class WebhookEndpointRegistration
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    public static async Task<string> RegisterAsync(BenchEnvironment env, string queue, string name, Uri url)
    {
        var info = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        string[] arguments = [env.AdminDll, "webhooks", "add", name, url.ToString(), "--allow-private"];
        foreach (string argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (key, value) in env.ServiceVariables(queue, "admin"))
        {
            info.Environment[key] = value;
        }

        using var admin = Process.Start(info) ?? throw new InvalidOperationException("could not start the admin tool");
        var stdout = admin.StandardOutput.ReadToEndAsync();
        var stderr = admin.StandardError.ReadToEndAsync();
        using (var timeout = new CancellationTokenSource(Timeout))
        {
            await admin.WaitForExitAsync(timeout.Token);
        }

        string output = await stdout + await stderr;
        string command = $"admin webhooks add {name} {url} --allow-private";
        if (admin.ExitCode != 0)
        {
            throw new InvalidOperationException($"{command} exited {admin.ExitCode}: {Redacted(output)}");
        }

        var secret = Secret().Match(output);
        Console.WriteLine($"  registered the webhook endpoint: {command}");
        return secret.Success
            ? secret.Value
            : throw new InvalidOperationException($"{command} printed no signing secret (whsec_...), so the receiver cannot verify: {output}");
    }

    private static string Redacted(string output) => Secret().Replace(output, "whsec_***");

    // Standard Webhooks secrets: whsec_ and base64.
    [GeneratedRegex("whsec_[A-Za-z0-9+/]+={0,2}", RegexOptions.CultureInvariant)]
    private static partial Regex Secret();
}
