using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// samples/Orders as a business app gets it: the client packages packed with <c>dotnet pack</c> into a
/// folder (from the assemblies built with this test project: <c>--no-build</c> saves two builds), the sample restored from that folder (a version of this run's own, so the NuGet cache never
/// serves an older build), built, and started on a loopback port. Disposing stops it and removes this
/// run's packages from the cache.
/// </summary>
internal sealed partial class SampleApp : IAsyncDisposable
{
    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(5);
    private static readonly TimeSpan StartTimeout = TimeSpan.FromMinutes(1);
    private readonly Process _process;
    private readonly string _work;
    private readonly string _version;

    private SampleApp(Process process, string work, string version)
    {
        _process = process;
        _work = work;
        _version = version;
    }

    public required Uri BaseAddress { get; init; }

    public static async Task<SampleApp> StartAsync(string connectionString, string schema)
    {
        string version = string.Create(CultureInfo.InvariantCulture, $"1.0.0-test.{DateTime.UtcNow:yyyyMMddHHmmss}.{Environment.ProcessId}");
        string work = Directory.CreateTempSubdirectory("notifications-sample-").FullName;
        string packages = Path.Combine(work, "packages");
        string artifacts = Path.Combine(work, "artifacts");
        foreach (string project in new[] { "Client/Notifications.Client.csproj", "Client.EntityFrameworkCore/Notifications.Client.EntityFrameworkCore.csproj" })
        {
            await DotnetAsync("pack", RepositoryLayout.File(project), "-c", RepositoryLayout.Configuration, "--no-build", "-o", packages, $"-p:Version={version}");
        }

        await DotnetAsync("build", RepositoryLayout.File("samples", "Orders", "Notifications.Samples.Orders.csproj"), "-c", "Release",
            "--artifacts-path", artifacts, $"-p:NotificationsClientVersion={version}", $"-p:RestoreAdditionalProjectSources={packages}");
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

        return new SampleApp(process, work, version) { BaseAddress = await listening.Task };
    }

    public async ValueTask DisposeAsync()
    {
        _process.Kill(entireProcessTree: true);
        await _process.WaitForExitAsync();
        _process.Dispose();
        Directory.Delete(_work, recursive: true);
        string cache = Environment.GetEnvironmentVariable("NUGET_PACKAGES")
            ?? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".nuget", "packages");
        foreach (string id in new[] { "notifications.client", "notifications.client.entityframeworkcore" })
        {
            string extracted = Path.Combine(cache, id, _version);
            if (Directory.Exists(extracted))
            {
                Directory.Delete(extracted, recursive: true);
            }
        }
    }

    private static async Task DotnetAsync(params string[] arguments)
    {
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryLayout.Root };
        foreach (string argument in arguments.Append("-nologo"))
        {
            info.ArgumentList.Add(argument);
        }

        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(BuildTimeout);
        if (process.ExitCode != 0)
        {
            throw new InvalidOperationException(
                $"dotnet {string.Join(' ', arguments)} exited with {process.ExitCode}:{Environment.NewLine}{await stdout}{await stderr}");
        }
    }

    [GeneratedRegex(@"Now listening on: (http://127\.0\.0\.1:\d+)")]
    private static partial Regex ListeningOn();
}
