namespace Notifications.UnitTests;

/// <summary>Files of the repository the tests run from (the directory holding Notifications.sln, above the test output).</summary>
internal static class RepositoryFile
{
    private static readonly string Root = FindRoot();

    public static string Read(params string[] parts) => File.ReadAllText(Path.Combine([Root, .. parts]));

    private static string FindRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            if (File.Exists(Path.Combine(dir.FullName, "Notifications.sln")))
            {
                return dir.FullName;
            }
        }

        throw new DirectoryNotFoundException("Notifications.sln not found above " + AppContext.BaseDirectory);
    }
}
