using System.ComponentModel.DataAnnotations;

namespace Notifications.Gateway;

/// <summary>Where the gateway answers apps (section <c>Gateway</c>), and the key their tokens are signed with.</summary>
internal sealed class GatewayOptions
{
    public const string SectionName = "Gateway";

    /// <summary>The address Kestrel binds: <c>0.0.0.0</c> in a container.</summary>
    [Required]
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>The WebSocket port; 0 picks a free one (tests).</summary>
    [Range(0, 65535)]
    public int Port { get; set; } = 8090;

    /// <summary>The gRPC port (HTTP/2; <c>Transports/live.proto</c>); 0 picks a free one (tests).</summary>
    [Range(0, 65535)]
    public int GrpcPort { get; set; } = 8091;

    /// <summary>
    /// A PEM certificate file (the chain after the leaf): the public port speaks TLS (<c>wss://</c>) with it, from the stack's
    /// CA or a public one. Unset: plain WebSocket (<c>ws://</c>) on loopback, or behind a proxy that terminates TLS.
    /// </summary>
    public string? Certificate { get; set; }

    /// <summary>The PEM private key of <see cref="Certificate"/> (both or neither).</summary>
    public string? CertificateKey { get; set; }

    /// <summary>Whether the public port speaks TLS.</summary>
    public bool Https => Certificate is { Length: > 0 };

    /// <summary>
    /// The key the business app signs its clients' tokens with (HMAC-SHA256, at least 32 bytes in base64; docs/live.md).
    /// A Docker secret in the stacks.
    /// </summary>
    [Required]
    public string TokenKey { get; set; } = "";

    /// <summary>The issuer and audience a token must name.</summary>
    public string Issuer { get; set; } = "notifications-app";

    /// <summary>The audience a token must name.</summary>
    public string Audience { get; set; } = "notifications-gateway";

    /// <summary>The most pending notifications sent to a client on connect (the oldest first).</summary>
    [Range(1, 10_000)]
    public int MaxPending { get; set; } = 1_000;

    /// <summary>
    /// The most notifications waiting to be sent to one client: a client that leaves more unread is closed (1008), its
    /// notifications still pending.
    /// </summary>
    [Range(1, 100_000)]
    public int SendBuffer { get; set; } = 256;

    /// <summary>
    /// How long the node's queue stays bound under a subscriber after its last connection here left: a client back within it
    /// (a network blip, a reconnect storm) costs the broker nothing; zero unbinds at the next sweep (within a second).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "01:00:00")]
    public TimeSpan UnbindAfter { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How often the gateway reads which outcome event types endpoints subscribe to (an ack's <c>notification.acked</c>) and
    /// reports the live notifications that expired unacked (<c>notification.expired</c>; docs/outcome-events.md).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00.050", "00:10:00")]
    public TimeSpan OutcomeInterval { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Kestrel's <c>UnsafePreferInlineScheduling</c>: a connection's code (an ack read and parsed, a frame written) runs on the
    /// I/O thread that read or wrote its bytes instead of a thread-pool hop each way. Safe here because nothing on a connection's
    /// path blocks (its database work and broker binds are awaited); a broadcast's CPU per client at the gateway was a third
    /// less (docs/live.md, "A broadcast to a topic"). False: dispatched to the thread pool, as Kestrel does by default.
    /// </summary>
    public bool InlineScheduling { get; set; } = true;
}
