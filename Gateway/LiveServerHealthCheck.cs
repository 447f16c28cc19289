using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace Notifications.Gateway;

/// <summary>Readiness (and startup): the public server listens, so apps' clients can connect here.</summary>
internal sealed class LiveServerHealthCheck(LiveServer server) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(server.Address is { } address
            ? HealthCheckResult.Healthy($"listening on {address}")
            : HealthCheckResult.Unhealthy("not listening yet"));
}
