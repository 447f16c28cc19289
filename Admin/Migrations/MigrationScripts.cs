using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using DbUp.Engine;
using Notifications.Shared.Hosting;

namespace Notifications.Admin.Migrations;

/// <summary>
/// The migrations of one dialect, laid out as <c>db/postgres/</c> and <c>db/sqlserver/</c> are: the numbered files
/// (<c>NNN_*.sql</c>, run once each, in name order, journaled by file name) and the files of <c>repeatable/</c>
/// (functions, views, grants: run after every numbered one, in name order, again whenever their text changes).
/// The tool carries both dialects' files as embedded resources; <c>migrate --scripts DIR</c> reads a directory instead.
/// </summary>
internal sealed class MigrationScripts
{
    /// <summary>The folder of the repeatable files, beside the numbered ones.</summary>
    public const string RepeatableFolder = "repeatable";

    private const int NumberedGroup = 1;
    private const int RepeatableGroup = 2;

    private MigrationScripts(IReadOnlyList<SqlScript> scripts, string source)
    {
        Scripts = scripts;
        Source = source;
    }

    /// <summary>Every script, numbered first, each group in name order (the order DbUp runs them in).</summary>
    public IReadOnlyList<SqlScript> Scripts { get; }

    /// <summary>Where the scripts came from, for the output.</summary>
    public string Source { get; }

    /// <summary>The files built into the tool (Admin's csproj embeds <c>db/postgres</c> and <c>db/sqlserver</c>).</summary>
    public static MigrationScripts Embedded(DatabaseProvider provider)
    {
        string prefix = $"db/{Folder(provider)}/";
        var assembly = typeof(MigrationScripts).Assembly;
        var files = assembly.GetManifestResourceNames()
            .Where(name => name.StartsWith(prefix, StringComparison.Ordinal))
            .Select(name => (name[prefix.Length..], Read(assembly, name)));
        return From(files, $"built into the tool (db/{Folder(provider)})");
    }

    /// <summary>The files of <paramref name="directory"/>: <c>*.sql</c> numbered, <c>repeatable/*.sql</c> repeatable.</summary>
    public static MigrationScripts FromDirectory(string directory)
    {
        if (!Directory.Exists(directory))
        {
            throw new AdminException($"--scripts: no directory {directory}", ExitCodes.Usage);
        }

        var numbered = Directory.GetFiles(directory, "*.sql").Select(path => Path.GetFileName(path));
        string repeatableDirectory = Path.Combine(directory, RepeatableFolder);
        var repeatable = Directory.Exists(repeatableDirectory)
            ? Directory.GetFiles(repeatableDirectory, "*.sql").Select(path => $"{RepeatableFolder}/{Path.GetFileName(path)}")
            : [];
        var files = numbered.Concat(repeatable).Select(name => (name, File.ReadAllText(Path.Combine(directory, name))));
        return From(files, Path.GetFullPath(directory));
    }

    /// <summary>The folder under <c>db/</c> of <paramref name="provider"/>'s files.</summary>
    public static string Folder(DatabaseProvider provider) => provider == DatabaseProvider.SqlServer ? "sqlserver" : "postgres";

    /// <summary>
    /// The journal's name of a repeatable file: its path and the start of its text's SHA-256 (line ends normalised, so a
    /// checkout with CRLF is the same text). A changed file has a name the journal does not hold yet, so it runs again.
    /// </summary>
    public static string RepeatableName(string relativePath, string text)
    {
        byte[] hash = SHA256.HashData(Encoding.UTF8.GetBytes(text.ReplaceLineEndings("\n")));
        return $"{relativePath}@{Convert.ToHexStringLower(hash)[..12]}";
    }

    /// <summary>The file a journal name stands for: the name itself, or a repeatable file's path without its hash.</summary>
    public static string FileOf(string journalName) =>
        journalName.LastIndexOf('@') is var at and > 0 ? journalName[..at] : journalName;

    private static MigrationScripts From(IEnumerable<(string RelativePath, string Text)> files, string source)
    {
        var scripts = new List<SqlScript>();
        foreach (var (relativePath, text) in files)
        {
            string path = relativePath.Replace('\\', '/');
            if (path.StartsWith(RepeatableFolder + "/", StringComparison.Ordinal))
            {
                scripts.Add(new SqlScript(RepeatableName(path, text), text, new SqlScriptOptions { RunGroupOrder = RepeatableGroup }));
            }
            else if (!path.Contains('/', StringComparison.Ordinal))
            {
                scripts.Add(new SqlScript(path, text, new SqlScriptOptions { RunGroupOrder = NumberedGroup }));
            }
        }

        if (scripts.Count == 0)
        {
            throw new AdminException($"no migrations found ({source})", ExitCodes.Usage);
        }

        return new MigrationScripts(
            scripts.OrderBy(s => s.SqlScriptOptions.RunGroupOrder).ThenBy(s => s.Name, StringComparer.Ordinal).ToList(), source);
    }

    private static string Read(Assembly assembly, string name)
    {
        using var stream = assembly.GetManifestResourceStream(name)!;
        using var reader = new StreamReader(stream, Encoding.UTF8);
        return reader.ReadToEnd();
    }
}
