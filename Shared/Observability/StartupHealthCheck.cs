using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Observability;

/// <summary>
/// Startup: the worker has been ready (broker connection open, database answering) at least once since it started.
/// Until then it asks the readiness checks; once they pass it stays healthy. What a container orchestrator without a
/// separate readiness notion (Docker) should gate on, with liveness: a new task is "healthy" only once it reached
/// the broker and the database, and a later outage of either does not get every worker restarted (that brings
/// neither back; <c>/health/ready</c> shows it). A process without a broker connection (<paramref name="usesBroker"/> false:
/// the unsubscribe server) is ready once its database answers.
/// </summary>
internal sealed class StartupHealthCheck(WorkerHealth health, IOptions<DatabaseOptions> database, IServiceProvider services, TimeProvider time, bool usesBroker) : IHealthCheck
{
    private long _readyAtTicks;   // UTC ticks of the first ready check; 0 until then. Kept: DI holds this check as a singleton.

    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        long readyAt = Interlocked.Read(ref _readyAtTicks);
        if (readyAt != 0)
        {
            return HealthCheckResult.Healthy($"ready since {new DateTimeOffset(readyAt, TimeSpan.Zero):u}");
        }

        if (usesBroker && !health.IsBrokerConnected)
        {
            return HealthCheckResult.Unhealthy("not yet connected to RabbitMQ");
        }

        var db = await new DatabaseHealthCheck(database, services).CheckHealthAsync(context, cancellationToken);
        if (db.Status != HealthStatus.Healthy)
        {
            return HealthCheckResult.Unhealthy($"{(usesBroker ? "connected to RabbitMQ; " : "")}not yet connected to the database: {db.Description}");
        }

        Interlocked.CompareExchange(ref _readyAtTicks, time.GetUtcNow().UtcTicks, 0);
        return HealthCheckResult.Healthy("ready for the first time");
    }
}
