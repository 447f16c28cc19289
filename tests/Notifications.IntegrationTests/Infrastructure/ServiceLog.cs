namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Notes once per service how this test run had it (an endpoint from the environment or a container), in
/// .run/test-services.txt, which scripts/test prints next to the totals.
/// </summary>
internal static class ServiceLog
{
    private static readonly HashSet<string> Noted = [];

    public static void Note(string service, string how)
    {
        lock (Noted)
        {
            if (!Noted.Add(service))
            {
                return;
            }

            string file = RepositoryLayout.File(".run", "test-services.txt");
            Directory.CreateDirectory(Path.GetDirectoryName(file)!);
            File.AppendAllText(file, $"{service}: {how}{Environment.NewLine}");
        }
    }
}
