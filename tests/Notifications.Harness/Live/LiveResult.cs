namespace Notifications.Harness.Live;

/// <summary>
/// One live run: the clients' connect, the gateways' memory for them idle, a steady flow of single notifications (insert commit
/// -> client receive, ack -> row gone), then a broadcast to every connected client (commit -> 50 %, 90 %, 100 % received): one
/// row to a topic of all of them, or one row each (<c>--broadcast</c>).
/// </summary>
internal sealed record LiveResult
{
    public required int Clients { get; init; }

    public required int Gateways { get; init; }

    public required LiveConnectResult Connect { get; init; }

    /// <summary>The gateways' resident memory (VmRSS, all together) before the clients connected and after, idle; MiB.</summary>
    public required double GatewayRssBeforeMib { get; init; }

    public required double GatewayRssAfterMib { get; init; }

    /// <summary>(after - before) / connected clients, KB.</summary>
    public double GatewayKbPerConnection => Connect.Connected == 0 ? 0 : (GatewayRssAfterMib - GatewayRssBeforeMib) * 1024 / Connect.Connected;

    /// <summary>The steady flow: offered per second, for seconds; inserted, received (distinct), never received, received again.</summary>
    public required int OfferedRate { get; init; }

    public required double SteadySeconds { get; init; }

    public required long Inserted { get; init; }

    public required long Received { get; init; }

    public long Lost => Inserted - Received;

    public required long Duplicates { get; init; }

    /// <summary>Insert commit -> client receive over the notifications committed after the warm-up (and outside a storm's window), ms.</summary>
    public required int Measured { get; init; }

    public required double P50Ms { get; init; }

    public required double P99Ms { get; init; }

    public required double MaxMs { get; init; }

    /// <summary>Commit -> receive by 5-second window of the commits, the warm-up included.</summary>
    public required IReadOnlyList<WindowRow> Windows { get; init; }

    /// <summary>Client ack -> row gone, over the sampled acks, ms; acks whose row stayed.</summary>
    public required int AckSamples { get; init; }

    public required double AckGoneP50Ms { get; init; }

    public required double AckGoneP99Ms { get; init; }

    public required double AckGoneMaxMs { get; init; }

    public required long AckNotGone { get; init; }

    public required LiveCpu SteadyCpu { get; init; }

    /// <summary>
    /// The broadcast: one row to a topic of every connected client, or one row per client in one transaction (its insert's time,
    /// s), then commit -> share of the clients received, s.
    /// </summary>
    public required long BroadcastExpected { get; init; }

    public required long BroadcastReceived { get; init; }

    public long BroadcastLost => BroadcastExpected - BroadcastReceived;

    public required double BroadcastInsertSeconds { get; init; }

    public double? Broadcast50Seconds { get; init; }

    public double? Broadcast90Seconds { get; init; }

    public double? Broadcast100Seconds { get; init; }

    public required LiveCpu BroadcastCpu { get; init; }

    /// <summary>Frames of a topic broadcast that came again to a client that had one (a rows broadcast's are among <see cref="Duplicates"/>).</summary>
    public long BroadcastAgain { get; init; }

    /// <summary>Clients the gateway closed (or whose connection broke) during the run; frames without an id; rows left pending at the end.</summary>
    public required long ClosedByGateway { get; init; }

    public required long Unreadable { get; init; }

    public required long PendingLeft { get; init; }

    /// <summary>Each worker's peak resident memory (VmHWM), MiB, by name.</summary>
    public required IReadOnlyDictionary<string, double> PeakRssMib { get; init; }

    public required double LoadBefore { get; init; }

    public required double LoadAfter { get; init; }

    /// <summary>The reconnect storm in the flow (<c>--storm-within</c>), or null without one. The steady flow's percentiles leave its window out.</summary>
    public LiveStormResult? Storm { get; init; }
}
