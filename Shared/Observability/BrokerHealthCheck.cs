using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Notifications.Shared.Observability;

/// <summary>Readiness: the worker's own broker connection is open.</summary>
internal sealed class BrokerHealthCheck(WorkerHealth health) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(health.IsBrokerConnected
            ? HealthCheckResult.Healthy("connected to RabbitMQ")
            : HealthCheckResult.Unhealthy("not connected to RabbitMQ"));
}
