namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>Paths in the repository the tests run from: files checked in, and the workers as built.</summary>
internal static class RepositoryLayout
{
    private static readonly DirectoryInfo TestOutput = new(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));

    /// <summary>The directory holding Notifications.sln.</summary>
    public static string Root { get; } = FindRoot();

    /// <summary>The configuration this test project was built in (Release, Debug).</summary>
    public static string Configuration => TestOutput.Parent!.Name;

    public static string File(params string[] parts) => Path.Combine([Root, .. parts]);

    /// <summary>
    /// A worker's dll as the build of this test project left it (same configuration and target
    /// framework: the project references make the build produce it first).
    /// </summary>
    public static string WorkerDll(string project) => BuiltDll(project, $"Notifications.{project}");

    /// <summary>The original experiment's consumer (tests/Notifications.Baseline), as built with this test project.</summary>
    public static string BaselineDll() => BuiltDll(Path.Combine("tests", "Notifications.Baseline"), "Notifications.Baseline");

    /// <summary>The console tests' OpenID Connect provider (tests/Notifications.OidcProvider), as built with this test project.</summary>
    public static string OidcProviderDll() => BuiltDll(Path.Combine("tests", "Notifications.OidcProvider"), "Notifications.OidcProvider");

    private static string BuiltDll(string projectDirectory, string assembly)
    {
        string dll = File(projectDirectory, "bin", TestOutput.Parent!.Name, TestOutput.Name, $"{assembly}.dll");
        return System.IO.File.Exists(dll)
            ? dll
            : throw new FileNotFoundException($"{dll} is missing: build the solution (scripts/test does) before running this test.");
    }

    private static string FindRoot()
    {
        for (var dir = TestOutput; dir is not null; dir = dir.Parent)
        {
            if (System.IO.File.Exists(Path.Combine(dir.FullName, "Notifications.sln")))
            {
                return dir.FullName;
            }
        }

        throw new DirectoryNotFoundException($"No Notifications.sln above {TestOutput.FullName}.");
    }
}
