using Dapper;
using Npgsql;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Counts, every few milliseconds until disposed, the server processes (<c>pg_stat_activity</c> rows) a database role's
/// login holds in the test database: what a worker's connection pool really keeps open, seen from the server's side.
/// A pool keeps what it opened for minutes, so the most seen is what the worker needed at its busiest.
/// </summary>
internal sealed class BackendSampler : IAsyncDisposable
{
    private static readonly TimeSpan Every = TimeSpan.FromMilliseconds(20);
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _sampling;
    private readonly string _login;
    private int _most;
    private string _busiest = "";

    private BackendSampler(DatabaseRole role)
    {
        _login = new NpgsqlConnectionStringBuilder(TestRoles.ConnectionString(role)).Username!;
        _sampling = SampleAsync(_stop.Token);
    }

    /// <summary>The most backends of the role's login seen at once so far.</summary>
    public int Most => Volatile.Read(ref _most);

    /// <summary>The busiest sample, by application name and state (e.g. <c>notifications-consumer idle: 7</c>).</summary>
    public string Busiest => Volatile.Read(ref _busiest);

    public static BackendSampler Start(DatabaseRole role) => new(role);

    /// <summary>The backends of the role's login now.</summary>
    public static async Task<int> CountAsync(DatabaseRole role)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<int>(
            "SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND usename = @Login",
            new { Login = new NpgsqlConnectionStringBuilder(TestRoles.ConnectionString(role)).Username });
    }

    /// <summary>Stops sampling.</summary>
    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        await _sampling;
        _stop.Dispose();
    }

    private async Task SampleAsync(CancellationToken stop)
    {
        await using var connection = await TestDatabase.OpenAsync();
        using var timer = new PeriodicTimer(Every);
        do
        {
            var rows = (await connection.QueryAsync<(string Name, string State, int Count)>("""
                SELECT coalesce(application_name, ''), coalesce(state, ''), count(*)::int
                FROM pg_stat_activity WHERE datname = current_database() AND usename = @Login
                GROUP BY 1, 2 ORDER BY 1, 2
                """, new { Login = _login })).AsList();
            int total = rows.Sum(r => r.Count);
            if (total > _most)
            {
                Volatile.Write(ref _busiest, string.Join(", ", rows.Select(r => $"{r.Name} {r.State}: {r.Count}")));
                Volatile.Write(ref _most, total);
            }
        }
        while (await WaitAsync(timer, stop));
    }

    // False once stopped.
    private static async Task<bool> WaitAsync(PeriodicTimer timer, CancellationToken stop)
    {
        try
        {
            return await timer.WaitForNextTickAsync(stop);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return false;
        }
    }
}
