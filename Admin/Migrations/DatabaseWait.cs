using System.Data.Common;
using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using Microsoft.Data.SqlClient;

namespace Notifications.Admin.Migrations;

/// <summary>
/// <c>migrate --wait</c>: retries the first look at the database while it does not answer yet (a server still starting, a
/// name not yet in DNS, a network path not yet up: a deploy's migrate task started beside the database), for up to the
/// given time, printing each failed try. An error that waiting cannot cure (a wrong password, a missing database, a bad
/// script) is not retried.
/// </summary>
internal static class DatabaseWait
{
    private static readonly TimeSpan Pause = TimeSpan.FromSeconds(2);

    public static async Task<T> UntilAnswersAsync<T>(Func<Task<T>> call, TimeSpan wait, TextWriter output, CancellationToken cancellationToken)
    {
        var clock = Stopwatch.StartNew();
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return await call();
            }
            catch (Exception ex) when (wait > TimeSpan.Zero && IsTransient(ex) && clock.Elapsed + Pause < wait)
            {
                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                    $"  waiting for the database (try {attempt}, {clock.Elapsed.TotalSeconds:0} s of --wait {wait.TotalSeconds:0} s): {AdminContext.Innermost(ex).Message}"));
                await Task.Delay(Pause, cancellationToken);
            }
        }
    }

    /// <summary>Whether waiting may cure <paramref name="ex"/>: the server not reachable or not accepting connections yet.</summary>
    public static bool IsTransient(Exception ex) => ex switch
    {
        // SQL Server's connection errors: timeout, no server at the address, network errors, server starting or in upgrade.
        SqlException sql => sql.Number is -2 or 2 or 53 or 121 or 233 or 10053 or 10054 or 10060 or 10061 or 11001 or 18401 or 40613,
        // Npgsql: a connection failure (refused, reset, timed out, name not resolved) or 57P03 "the database system is starting up".
        DbException db => db.IsTransient,
        SocketException or TimeoutException => true,
        InvalidOperationException { InnerException: { } inner } => IsTransient(inner),
        _ => false,
    };
}
