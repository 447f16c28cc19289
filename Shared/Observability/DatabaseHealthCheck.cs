using System.Data.Common;
using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.Shared.Observability;

/// <summary>Readiness: the database answers <c>SELECT 1</c> within five seconds.</summary>
internal sealed class DatabaseHealthCheck(IOptions<DatabaseOptions> options, IServiceProvider services) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(TimeSpan.FromSeconds(5));
        try
        {
            await using var connection = await OpenAsync(timeout.Token);
            await using var command = connection.CreateCommand();
            command.CommandText = "SELECT 1";
            command.CommandTimeout = 5;
            await command.ExecuteScalarAsync(timeout.Token);
            return HealthCheckResult.Healthy($"{options.Value.Provider} answers");
        }
        catch (Exception ex) when (ex is DbException or OperationCanceledException or InvalidOperationException or TimeoutException)
        {
            return HealthCheckResult.Unhealthy($"{options.Value.Provider} unreachable: {ex.Message}");
        }
    }

    private async Task<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        if (options.Value.Provider == DatabaseProvider.Postgres)
        {
            var dataSource = (NpgsqlDataSource)services.GetService(typeof(NpgsqlDataSource))!;
            return await dataSource.OpenConnectionAsync(cancellationToken);
        }

        var connection = new SqlConnection(options.Value.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        return connection;
    }
}
