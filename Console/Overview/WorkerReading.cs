using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole.Overview;

/// <summary>What one worker's operations endpoint answered, or that it did not (<see cref="NoAnswer"/> says why).</summary>
/// <param name="Name">The worker as configured.</param>
/// <param name="Health">Its readiness (Healthy, Degraded, Unhealthy), or null with no answer.</param>
/// <param name="Checks">Its readiness checks, one line each ("database: Healthy — answered").</param>
/// <param name="Breakers">Its circuit breakers; null with no answer or an endpoint that does not serve them.</param>
/// <param name="NoAnswer">Why there is no reading (no answer within the probe's timeout, refused, not an endpoint's answer).</param>
internal sealed record WorkerReading(
    string Name, string? Health, IReadOnlyList<string> Checks, IReadOnlyList<BreakerReading>? Breakers, string? NoAnswer)
{
    public static WorkerReading Silent(string name, string why) => new(name, null, [], null, why);
}
