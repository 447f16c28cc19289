namespace Notifications.Harness.Live;

/// <summary>
/// One process's clients through a storm: each client's time from the drop to connected again (ms; the ones never back are
/// not in it), the upgrade time of each successful reconnect (ms), the failed attempts that were retried, the clients that never
/// got back, the first failure's reason.
/// </summary>
internal sealed record LiveStormTimes(List<double> BackMs, List<double> UpgradeMs, int Retries, int Failed, string? FirstError);
