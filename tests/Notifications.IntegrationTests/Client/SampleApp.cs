using System.Diagnostics;
using System.Text;
using System.Text.RegularExpressions;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// samples/Orders as a business app gets it: restored from the <see cref="PackedClient"/> folder, built, and started on a
/// loopback port. Disposing stops it.
/// </summary>
internal sealed partial class SampleApp : IAsyncDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromMinutes(1);
    private readonly Process _process;

    private SampleApp(Process process) => _process = process;

    public required Uri BaseAddress { get; init; }

    public static string Project => RepositoryLayout.File("samples", "Orders", "Notifications.Samples.Orders.csproj");

    public static async Task<SampleApp> StartAsync(PackedClient client, string connectionString, string schema)
    {
        string artifacts = Path.Combine(client.Work, "orders");
        await PackedClient.DotnetAsync(RepositoryLayout.Root, client.AppEnvironment(artifacts), "build", Project, "-c", "Release", "-nologo");
        string dll = Directory.GetFiles(Path.Combine(artifacts, "bin"), "Notifications.Samples.Orders.dll", SearchOption.AllDirectories).Single();

        var info = new ProcessStartInfo("dotnet") { WorkingDirectory = Path.GetDirectoryName(dll)!, RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add(dll);
        info.ArgumentList.Add("--urls");
        info.ArgumentList.Add("http://127.0.0.1:0");
        info.Environment["ConnectionStrings__Orders"] = connectionString;
        info.Environment["Notifications__Schema"] = schema;
        info.Environment["ASPNETCORE_ENVIRONMENT"] = "Production";
        var process = Process.Start(info)!;
        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var output = new StringBuilder();
        void Read(object sender, DataReceivedEventArgs e)
        {
            lock (output)
            {
                output.AppendLine(e.Data);
            }

            if (e.Data is { } line && ListeningOn().Match(line) is { Success: true } match)
            {
                listening.TrySetResult(new Uri(match.Groups[1].Value));
            }
        }

        process.OutputDataReceived += Read;
        process.ErrorDataReceived += Read;
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var exited = process.WaitForExitAsync();
        if (await Task.WhenAny(listening.Task, exited).WaitAsync(StartTimeout) == exited)
        {
            throw new InvalidOperationException($"The sample exited with {process.ExitCode} before listening:{Environment.NewLine}{output}");
        }

        return new SampleApp(process) { BaseAddress = await listening.Task };
    }

    public async ValueTask DisposeAsync()
    {
        _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync();
        _process.Dispose();
    }

    [GeneratedRegex(@"Now listening on: (http://127\.0\.0\.1:\d+)")]
    private static partial Regex ListeningOn();
}
