using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Notifications.Harness;

/// <summary>
/// Registers a webhook run's endpoint as an operator does, with the admin tool: <c>webhooks add NAME URL --allow-private</c>
/// (the receiver listens on loopback, which the endpoint check refuses unless allowed), and reads the signing secret
/// (<c>whsec_...</c>) from what the tool prints, for the receiver to verify with. The secret is not written to the run's files.
/// Subscribes an endpoint to outcome events the same way (<c>webhooks subscribe</c>).
/// </summary>
internal static partial class WebhookEndpointRegistration
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(60);

    public static async Task<string> RegisterAsync(BenchEnvironment env, string queue, string name, Uri url)
    {
        string output = await RunAdminAsync(env, queue, ["webhooks", "add", name, url.ToString(), "--allow-private"]);
        var secret = Secret().Match(output);
        return secret.Success
            ? secret.Value
            : throw new InvalidOperationException($"admin webhooks add {name} printed no signing secret (whsec_...), so the receiver cannot verify: {output}");
    }

    /// <summary>Subscribes the endpoint to outcome events: <c>webhooks subscribe NAME TYPE...</c>.</summary>
    public static Task SubscribeAsync(BenchEnvironment env, string queue, string name, params string[] types) =>
        RunAdminAsync(env, queue, ["webhooks", "subscribe", name, .. types]);

    private static async Task<string> RunAdminAsync(BenchEnvironment env, string queue, string[] command)
    {
        var info = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string argument in (string[])[env.AdminDll, .. command])
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
        string said = "admin " + string.Join(' ', command);
        if (admin.ExitCode != 0)
        {
            throw new InvalidOperationException($"{said} exited {admin.ExitCode}: {Redacted(output)}");
        }

        Console.WriteLine($"  ran {said}");
        return output;
    }

    private static string Redacted(string output) => Secret().Replace(output, "whsec_***");

    // Standard Webhooks secrets: whsec_ and base64.
    [GeneratedRegex("whsec_[A-Za-z0-9+/]+={0,2}", RegexOptions.CultureInvariant)]
    private static partial Regex Secret();
}
