using System.Data.Common;

namespace Notifications.Shared.Hosting;

/// <summary>
/// What a worker adds to its connection string, unless the string says otherwise: its pool's size
/// (<see cref="DatabaseOptions.MaxPoolSize"/>, else the worker's bound) and its name as the server shows it
/// (<c>Application Name</c>: <c>pg_stat_activity.application_name</c>, <c>sys.dm_exec_sessions.program_name</c>), so an
/// operator can count each worker's connections. The drivers' own default pool (100 connections a process, Npgsql and
/// SqlClient alike) is a whole PostgreSQL server's default <c>max_connections</c>.
/// </summary>
internal static class DatabasePool
{
    private static readonly string[] PoolSizeKeys = ["MaximumPoolSize", "MaxPoolSize"];
    private static readonly string[] NameKeys = ["ApplicationName", "App"];

    /// <summary>
    /// <paramref name="options"/>' connection string with the pool's size and <paramref name="applicationName"/> added where
    /// it sets neither; <paramref name="workerBound"/> when <see cref="DatabaseOptions.MaxPoolSize"/> is unset.
    /// </summary>
    public static string Bound(DatabaseOptions options, string applicationName, int workerBound)
    {
        string connectionString = options.ConnectionString;
        if (string.IsNullOrWhiteSpace(connectionString))
        {
            return connectionString;   // left to the options' validation, which names the key
        }

        // The keys as written, without spaces: Npgsql's "Maximum Pool Size" (or MaxPoolSize), SqlClient's "Max Pool Size".
        var keys = new DbConnectionStringBuilder { ConnectionString = connectionString }.Keys.Cast<string>()
            .Select(k => k.Replace(" ", "", StringComparison.Ordinal)).ToList();
        bool Sets(string[] names) => keys.Any(k => names.Contains(k, StringComparer.OrdinalIgnoreCase));

        // Appended as text, so the rest of the string (quoting, a password's characters) stays exactly as given.
        var added = new List<string>(2);
        if (!Sets(PoolSizeKeys))
        {
            string key = options.Provider == DatabaseProvider.Postgres ? "Maximum Pool Size" : "Max Pool Size";
            added.Add(FormattableString.Invariant($"{key}={options.MaxPoolSize ?? workerBound}"));
        }

        if (!Sets(NameKeys))
        {
            added.Add($"Application Name={applicationName}");
        }

        return added.Count == 0 ? connectionString : $"{connectionString.TrimEnd().TrimEnd(';')};{string.Join(';', added)}";
    }
}
