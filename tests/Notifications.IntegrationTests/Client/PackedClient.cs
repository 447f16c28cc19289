using System.Diagnostics;
using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Client;

/// <summary>
/// The client packages as an app gets them: <c>Notifications.Client.slnf</c> packed once per test class with
/// <c>dotnet pack</c> into a folder (from the assemblies built with this test project: <c>--no-build</c> saves four builds),
/// with a version suffix of this run's own (<c>test.&lt;time&gt;.&lt;pid&gt;</c>), so the NuGet cache never serves an older
/// build. Disposing removes the folder and this run's packages from the cache.
/// </summary>
public sealed class PackedClient : IAsyncLifetime
{
    private static readonly TimeSpan CommandTimeout = TimeSpan.FromMinutes(5);
    private static readonly string[] PackageIds =
        ["Notifications.Client", "Notifications.Client.PostgreSql", "Notifications.Client.SqlServer", "Notifications.Client.EntityFrameworkCore"];

    public string Work { get; } = Directory.CreateTempSubdirectory("notifications-client-").FullName;

    public string Packages => Path.Combine(Work, "packages");

    /// <summary>The packed version, NotificationsClientVersion with this run's suffix.</summary>
    public string Version { get; private set; } = "";

    public async Task InitializeAsync()
    {
        string suffix = string.Create(CultureInfo.InvariantCulture, $"test.{DateTime.UtcNow:yyyyMMddHHmmss}.{Environment.ProcessId}");
        await DotnetAsync(RepositoryLayout.Root, new Dictionary<string, string>(), "pack", RepositoryLayout.File("Notifications.Client.slnf"), "-c", RepositoryLayout.Configuration,
            "--no-build", "-o", Packages, $"-p:VersionSuffix={suffix}");
        string postgres = Directory.GetFiles(Packages, $"Notifications.Client.PostgreSql.*-{suffix}.nupkg").Single();
        Version = Path.GetFileNameWithoutExtension(postgres)["Notifications.Client.PostgreSql.".Length..];
        Assert.All(PackageIds, id => Assert.True(File.Exists(Path.Combine(Packages, $"{id}.{Version}.nupkg")), $"{id} {Version} was not packed"));
    }

    /// <summary>
    /// The properties an app is restored and built with (as environment variables, which MSBuild reads as properties, so
    /// <c>dotnet list package</c>, which takes no <c>-p</c>, sees them too): this run's version and package folder, and
    /// the outputs under <paramref name="artifacts"/>.
    /// </summary>
    public IReadOnlyDictionary<string, string> AppEnvironment(string artifacts) => new Dictionary<string, string>
    {
        ["NotificationsClientPackageVersion"] = Version,
        ["RestoreAdditionalProjectSources"] = Packages,
        ["ArtifactsPath"] = artifacts,
        ["UseArtifactsOutput"] = "true",
    };

    /// <summary>Runs <c>dotnet</c> with <paramref name="arguments"/>; returns its output, or throws with it on a non-zero exit.</summary>
    public static async Task<string> DotnetAsync(string directory, IReadOnlyDictionary<string, string> environment, params string[] arguments)
    {
        var info = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = directory };
        foreach (string argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment)
        {
            info.Environment[name] = value;
        }

        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync().WaitAsync(CommandTimeout);
        return process.ExitCode == 0
            ? await stdout
            : throw new InvalidOperationException(
                $"dotnet {string.Join(' ', arguments)} exited with {process.ExitCode}:{Environment.NewLine}{await stdout}{await stderr}");
    }

    public Task DisposeAsync()
    {
        Directory.Delete(Work, recursive: true);
        string cache = Environment.GetEnvironmentVariable("NUGET_PACKAGES")
            ?? Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.UserProfile), ".nuget", "packages");
        foreach (string id in PackageIds)
        {
            string extracted = Path.Combine(cache, id.ToLowerInvariant(), Version);
            if (Version.Length > 0 && Directory.Exists(extracted))
            {
                Directory.Delete(extracted, recursive: true);
            }
        }

        return Task.CompletedTask;
    }
}
