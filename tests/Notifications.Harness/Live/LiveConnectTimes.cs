namespace Notifications.Harness.Live;

/// <summary>One process's clients' connect: each connected client's upgrade time (ms), how many failed, the first failure's reason.</summary>
internal sealed record LiveConnectTimes(List<double> UpgradeMs, int Failed, string? FirstError);
