namespace Notifications.Shared.Observability;

/// <summary>One circuit breaker as <see cref="BreakerBoard"/> holds it.</summary>
/// <param name="Name">What it guards: <c>relay</c>, <c>infrastructure</c>, <c>webhook:{endpoint}</c>, <c>push:{provider}</c>.</param>
/// <param name="State"><c>closed</c>, <c>open</c> or <c>half-open</c>.</param>
/// <param name="Since">When it entered that state (by the process's clock).</param>
public sealed record BreakerReading(string Name, string State, DateTimeOffset Since);
