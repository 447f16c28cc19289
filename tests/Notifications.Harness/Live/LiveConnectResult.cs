namespace Notifications.Harness.Live;

/// <summary>How the clients connected: how many, how many failed, the wall time for all, and each upgrade's time (ms).</summary>
internal sealed record LiveConnectResult(int Connected, int Failed, double Seconds, double P50Ms, double P99Ms, double MaxMs, string? FirstError);
