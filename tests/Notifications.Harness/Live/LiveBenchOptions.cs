using System.Globalization;

namespace Notifications.Harness.Live;

/// <summary>
/// The <c>live</c> mode's own options (scripts/bench --help, docs/benchmarks/README.md "Live"): how many clients connect, to how
/// many gateway processes, on which ports, how often an ack's deletion is timed, and how the broadcast is sent.
/// </summary>
internal sealed class LiveBenchOptions
{
    /// <summary>File descriptors a process keeps for itself beyond its sockets to clients (logs, database, broker, runtime).</summary>
    public const int ReservedDescriptors = 500;

    /// <summary>What every client's subscriber id starts with, its number after it (<see cref="Subscriber"/>).</summary>
    public const string SubscriberPrefix = "bench-live-";

    /// <summary>The topic every client's subscriber is in (<c>--broadcast topic</c>).</summary>
    public const string TopicName = "bench-live-all";

    /// <summary><c>--broadcast topic</c>: one audience row to a topic every client's subscriber is in.</summary>
    public const string TopicBroadcast = "topic";

    /// <summary><c>--broadcast rows</c>: one live row per client, all in one transaction.</summary>
    public const string RowsBroadcast = "rows";

    /// <summary>Client WebSocket connections, each its own subscriber (<c>bench-live-1</c> …).</summary>
    public int Clients { get; private set; } = 1_000;

    /// <summary>Gateway processes; the clients are spread over them in turn.</summary>
    public int Gateways { get; private set; } = 1;

    /// <summary>The first gateway's port; gateway i listens on it + i.</summary>
    public int GatewayPort { get; private set; } = 2690;

    /// <summary>One ack in this many is followed to its row's deletion (ack -> row gone).</summary>
    public int AckSample { get; private set; } = 100;

    /// <summary>
    /// The reconnect storm's window (<c>--storm-within</c>; null: no storm): every client's connection dropped at once, each
    /// connecting again at a moment drawn uniformly from this window (<see cref="LiveStorm"/>).
    /// </summary>
    public TimeSpan? StormWithin { get; private set; }

    /// <summary>When the storm drops the clients, from the flow's start (<c>--storm-at</c>; null: half of <c>--duration</c>).</summary>
    public TimeSpan? StormAt { get; private set; }

    /// <summary>The broadcast at the end of a run (<c>--broadcast</c>): <see cref="TopicBroadcast"/> or <see cref="RowsBroadcast"/>.</summary>
    public string Broadcast { get; private set; } = TopicBroadcast;

    /// <summary>Takes <paramref name="key"/> if it is one of this mode's; false otherwise.</summary>
    public bool TrySet(string key, string value)
    {
        switch (key)
        {
            case "--clients": Clients = Count(key, value, 1, 1_000_000); break;
            case "--gateways": Gateways = Count(key, value, 1, 64); break;
            case "--gateway-port": GatewayPort = Count(key, value, 1, 65_000); break;
            case "--ack-sample": AckSample = Count(key, value, 1, 1_000_000); break;
            case "--storm-within": StormWithin = HarnessOptions.ParseDuration(value); break;
            case "--storm-at": StormAt = HarnessOptions.ParseDuration(value); break;
            case "--broadcast": Broadcast = value is TopicBroadcast or RowsBroadcast ? value : throw new ArgumentException($"--broadcast must be topic or rows, not '{value}'"); break;
            default: return false;
        }

        return true;
    }

    /// <summary>The mode's rules on the shared options: a steady rate, no more gateways than clients.</summary>
    public void Check(HarnessOptions options)
    {
        if (options.Rate is < 1 or > 100_000)
        {
            throw new ArgumentException("live: --rate must be 1-100000 notifications per second");
        }

        if (Gateways > Clients)
        {
            throw new ArgumentException("live: --gateways must be at most --clients");
        }

        if (StormAt is not null && StormWithin is null)
        {
            throw new ArgumentException("live: --storm-at needs --storm-within (the storm's window)");
        }

        if (StormWithin is { } within && (within <= TimeSpan.Zero || StormDropAt(options.Duration) >= options.Duration))
        {
            throw new ArgumentException("live: --storm-within must be positive and --storm-at before the end of --duration (the flow goes on through the storm)");
        }
    }

    /// <summary>When the storm drops the clients, from the start of a flow of <paramref name="duration"/>.</summary>
    public TimeSpan StormDropAt(TimeSpan duration) => StormAt ?? duration / 2;

    /// <summary>Gateway <paramref name="i"/>'s gRPC port: its WebSocket port + 100 (each gateway its own, beside the others).</summary>
    public static int GrpcPort(int firstPort, int i) => firstPort + 100 + i;

    /// <summary>Gateway <paramref name="i"/>'s operations endpoint (<c>/health/*</c>, <c>/metrics</c>): its WebSocket port + 200.</summary>
    public static int OperationsPort(int firstPort, int i) => firstPort + 200 + i;

    /// <summary>
    /// Clients one harness process holds under <paramref name="descriptorLimit"/> (the open-files limit every process of the
    /// run inherits: a socket is a file); the rest go to <c>live-clients</c> processes of their own.
    /// </summary>
    public static int ClientsPerProcess(long descriptorLimit) => (int)Math.Max(1, Math.Min(int.MaxValue, descriptorLimit - ReservedDescriptors));

    /// <summary>Why the gateways' connections do not fit under <paramref name="descriptorLimit"/> (each gateway holds its share), or null when they do.</summary>
    public string? DescriptorShortfall(long descriptorLimit)
    {
        int perGateway = (Clients + Gateways - 1) / Gateways;
        int room = ClientsPerProcess(descriptorLimit);
        return perGateway <= room
            ? null
            : string.Create(CultureInfo.InvariantCulture,
                $"live: {perGateway:N0} connections per gateway do not fit under the open-files limit {descriptorLimit:N0} (ulimit -n, at most ulimit -Hn): --gateways {(Clients + room - 1) / room} or more");
    }

    /// <summary>The gateways' WebSocket addresses, gateway i on <see cref="GatewayPort"/> + i.</summary>
    public static List<Uri> GatewayUris(LiveBenchOptions live) => Enumerable.Range(0, live.Gateways)
        .Select(i => new Uri(string.Create(CultureInfo.InvariantCulture, $"ws://127.0.0.1:{live.GatewayPort + i}/live"))).ToList();

    /// <summary>Subscriber <paramref name="k"/> (1-based): the k-th client's.</summary>
    public static string Subscriber(int k) => SubscriberPrefix + k.ToString(CultureInfo.InvariantCulture);

    private static int Count(string key, string value, int min, int max) =>
        int.TryParse(value.Replace("_", "", StringComparison.Ordinal), NumberStyles.None, CultureInfo.InvariantCulture, out int n) && n >= min && n <= max
            ? n
            : throw new ArgumentException(string.Create(CultureInfo.InvariantCulture, $"{key} must be a whole number {min:N0}-{max:N0}"));
}
