namespace Notifications.Harness.Live;

/// <summary>
/// A live run's reconnect storm (<see cref="LiveStormPhase"/>): the clients dropped, back, how long until the last was back
/// (from the drop), the reconnects' upgrade times, failed attempts retried, clients never back; the gateways' health through
/// it; the rows committed in its window (a second before the drop to a second after all were back): how many, received (at
/// least once, after the reconnect's replay or routed), lost, commit -> first receive.
/// </summary>
internal sealed record LiveStormResult
{
    public required double WithinSeconds { get; init; }

    public required int Dropped { get; init; }

    public required int Back { get; init; }

    public required double AllBackSeconds { get; init; }

    public required int Retries { get; init; }

    public required int NeverBack { get; init; }

    public string? FirstError { get; init; }

    public required double UpgradeP50Ms { get; init; }

    public required double UpgradeP99Ms { get; init; }

    public required double UpgradeMaxMs { get; init; }

    public required LiveGatewayHealth Health { get; init; }

    public required long Inserted { get; init; }

    public required long Received { get; init; }

    public long Lost => Inserted - Received;

    public required double P50Ms { get; init; }

    public required double P99Ms { get; init; }

    public required double MaxMs { get; init; }
}
