using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;

namespace Notifications.Shared.Observability;

/// <summary>Liveness: the worker's loop went round within <see cref="OperationsOptions.LivenessTimeout"/>.</summary>
internal sealed class LoopHealthCheck(WorkerHealth health, IOptions<OperationsOptions> options) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var since = health.SinceLastBeat;
        return Task.FromResult(since <= options.Value.LivenessTimeout
            ? HealthCheckResult.Healthy($"loop reported {since.TotalSeconds:F1} s ago")
            : HealthCheckResult.Unhealthy($"loop silent for {since.TotalSeconds:F0} s (limit {options.Value.LivenessTimeout.TotalSeconds:F0} s)"));
    }
}
