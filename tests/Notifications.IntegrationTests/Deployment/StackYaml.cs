namespace Notifications.IntegrationTests.Deployment;

/// <summary>
/// Reads the YAML that <c>docker stack config</c> renders: block style, two spaces per level, one key per
/// line. Enough to find a key's block and its child keys; not a general YAML reader.
/// </summary>
internal static class StackYaml
{
    /// <summary>
    /// The repository's stack file <paramref name="file"/> as <c>docker stack config</c> renders it (no engine needed);
    /// <c>SINK_DUMP</c>, which docker-stack.postgres.yml requires, is set to a placeholder.
    /// </summary>
    public static async Task<string> RenderAsync(string file)
    {
        string path = Infrastructure.RepositoryLayout.File(file);
        var (exitCode, output, error) = await DockerCli.RunAsync(
            new Dictionary<string, string> { ["SINK_DUMP"] = "/tmp/notifications-sink" }, "stack", "config", "-c", path);
        Xunit.Assert.True(exitCode == 0, $"docker stack config -c {path} exited {exitCode}: {error}");
        return output;
    }

    /// <summary>The lines of the block under the key path, e.g. ("services", "consumer").</summary>
    public static IReadOnlyList<string> Block(string yaml, params string[] path)
    {
        IEnumerable<string> lines = yaml.ReplaceLineEndings("\n").Split('\n');
        for (int depth = 0; depth < path.Length; depth++)
        {
            string header = new string(' ', 2 * depth) + path[depth] + ":";
            string childIndent = new(' ', 2 * (depth + 1));
            lines = lines.SkipWhile(l => l != header).Skip(1).TakeWhile(l => l.StartsWith(childIndent, StringComparison.Ordinal) || l.Length == 0);
            lines = lines.ToList();
        }

        return lines.ToList();
    }

    /// <summary>The keys directly under the key path.</summary>
    public static IReadOnlyList<string> Keys(string yaml, params string[] path)
    {
        string indent = new(' ', 2 * path.Length);
        return Block(yaml, path)
            .Where(l => l.StartsWith(indent, StringComparison.Ordinal) && l.Length > indent.Length && l[indent.Length] != ' ' && l.Contains(':', StringComparison.Ordinal))
            .Select(l => l[indent.Length..l.IndexOf(':', StringComparison.Ordinal)])
            .ToList();
    }

    /// <summary>A Go duration as docker renders it ("45s", "1m30s", "1h0m0s").</summary>
    public static TimeSpan Duration(string value)
    {
        var parts = System.Text.RegularExpressions.Regex.Matches(value, @"(\d+)(h|m|s)");
        return parts.Aggregate(TimeSpan.Zero, (sum, m) => sum + (m.Groups[2].Value switch
        {
            "h" => TimeSpan.FromHours(int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)),
            "m" => TimeSpan.FromMinutes(int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)),
            _ => TimeSpan.FromSeconds(int.Parse(m.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)),
        }));
    }
}
