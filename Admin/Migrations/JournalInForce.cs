using System.Data;
using DbUp.Engine;

namespace Notifications.Admin.Migrations;

/// <summary>
/// What a schema's journal says is in force: every numbered file it holds, and of each repeatable file only the text
/// applied last. A repeatable file's text applied once, then replaced (a newer version's, or an older one's by a
/// downgrade), is no longer in force: when the running version carries it again, it runs again.
/// </summary>
internal static class JournalInForce
{
    /// <summary><paramref name="rows"/> in the order they were applied; the rows in force, name to when applied.</summary>
    public static IReadOnlyDictionary<string, DateTime> Of(IEnumerable<(string Name, DateTime Applied)> rows)
    {
        var latestOfFile = new Dictionary<string, (string Name, DateTime Applied)>(StringComparer.Ordinal);
        foreach (var row in rows)
        {
            latestOfFile[MigrationScripts.FileOf(row.Name)] = row;
        }

        return latestOfFile.Values.ToDictionary(r => r.Name, r => r.Applied, StringComparer.Ordinal);
    }

    /// <summary>
    /// DbUp's table journal, answering "executed" with the rows in force (<paramref name="inForce"/>, read from that table
    /// under the migration lock) instead of reading every name it holds again; it still creates the table and writes the rows.
    /// </summary>
    public static IJournal Over(IJournal table, IReadOnlyCollection<string> inForce) => new Journal(table, inForce);

    private sealed class Journal(IJournal table, IReadOnlyCollection<string> inForce) : IJournal
    {
        public string[] GetExecutedScripts() => [.. inForce];

        public void StoreExecutedScript(SqlScript script, Func<IDbCommand> dbCommandFactory) => table.StoreExecutedScript(script, dbCommandFactory);

        public void EnsureTableExistsAndIsLatestVersion(Func<IDbCommand> dbCommandFactory) => table.EnsureTableExistsAndIsLatestVersion(dbCommandFactory);
    }
}
