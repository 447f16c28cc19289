using System.ComponentModel.DataAnnotations;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;

namespace Notifications.Shared.Hosting;

/// <summary>Broker connection and topology. Section <c>RabbitMq</c>; env vars <c>RabbitMq__Uri</c> etc.</summary>
public sealed class RabbitMqOptions : IValidatableObject
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "RabbitMq";

    /// <summary>AMQP URI with credentials and virtual host.</summary>
    [Required]
    public Uri Uri { get; set; } = new("amqp://guest:guest@127.0.0.1:5672/");

    /// <summary>
    /// Optional comma-separated <c>host[:port]</c> list (port 5672 when left out) of the cluster's nodes (e.g.
    /// <c>rabbit1:5672,rabbit2:5672</c>). Set: the client connects to one of them (in random order) and
    /// recovers onto any other; credentials and virtual host still come from <see cref="Uri"/>.
    /// Empty: the host and port of <see cref="Uri"/>.
    /// </summary>
    public string? Endpoints { get; set; }

    /// <summary>
    /// Optional path of a PEM (or DER) CA certificate, for an <c>amqps://</c> <see cref="Uri"/>: the broker's
    /// certificates must chain to it (and only to it), e.g. <c>/run/secrets/notifications_ca</c>. Empty: the
    /// system's trusted roots. Checked at start: the file must hold a certificate and the Uri must be amqps.
    /// </summary>
    public string? CaCertificate { get; set; }

    /// <summary>
    /// <c>Classic</c> (one node holds each queue) or <c>Quorum</c> (Raft-replicated over the cluster, see
    /// <see cref="Messaging.QueueArguments"/>). Every queue of the topology gets this type; it cannot be
    /// changed on an existing queue.
    /// </summary>
    public RabbitQueueType QueueType { get; set; } = RabbitQueueType.Classic;

    /// <summary>
    /// Quorum queues only: how often the broker hands out one message (returns by a dead consumer, a closed
    /// channel or a requeue count) before it dead-letters it to <see cref="DeadLetterQueue"/> — the second
    /// poison guard, for a message that kills its consumer before any attempt is counted.
    /// </summary>
    [Range(1, 10_000)]
    public int DeliveryLimit { get; set; } = 20;

    /// <summary>The direct exchange notifications are published to.</summary>
    [Required, RegularExpression(NamePattern)]
    public string Exchange { get; set; } = "notifications";

    /// <summary>The work queue competing consumers read; also the routing key.</summary>
    [Required, RegularExpression(NamePattern)]
    public string Queue { get; set; } = "notifications";

    /// <summary>
    /// Delays before each retry of a transiently failed send, one delay queue each
    /// (<c>{Queue}.retry.1</c>, ...). The number of entries + 1 is the maximum number of attempts.
    /// </summary>
    [MinLength(0)]
    public TimeSpan[] RetryDelays { get; set; } =
        [TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(30), TimeSpan.FromMinutes(2)];

    /// <summary>AMQP heartbeat: how soon a silently dead connection is noticed (about twice this).</summary>
    [Range(typeof(TimeSpan), "00:00:01", "00:10:00")]
    public TimeSpan Heartbeat { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>The longest wait between attempts at the first connection (the backoff doubles up to it).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "00:05:00")]
    public TimeSpan MaxConnectRetryDelay { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// How long a closed connection may go without the client trying to bring it back before the worker stops with exit code
    /// 3, to be started again (<see cref="Messaging.RecoveryStallGuard"/>: a race of RabbitMQ.Client 7.2.2's recovery).
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan RecoveryStallAfter { get; set; } = Messaging.RecoveryStallGuard.DefaultStallAfter;

    /// <summary>
    /// The urgent lane's work queue, <c>{Queue}.urgent</c>: rows with <c>priority = 'urgent'</c> are published
    /// here, and each consumer reads it with its own channel and handlers (<c>Consumer:Urgent*</c>).
    /// </summary>
    public string UrgentQueue => $"{Queue}.urgent";

    /// <summary>The work queues, one a lane: <see cref="Queue"/> (normal and bulk) and <see cref="UrgentQueue"/>.</summary>
    public IReadOnlyList<string> WorkQueues => [Queue, UrgentQueue];

    /// <summary>The dead-letter queue: <c>{Queue}.dead</c>.</summary>
    public string DeadLetterQueue => $"{Queue}.dead";

    /// <summary>
    /// Where the broker itself dead-letters (a quorum work queue's delivery limit, a message expired or rejected in it):
    /// <c>{Queue}.dead.inbox</c>. The consumers record each message found there in the <c>dead_letter</c> table, then move
    /// it to <see cref="DeadLetterQueue"/> (<c>Consumer/DeadLetterInbox</c>).
    /// </summary>
    public string DeadLetterInbox => $"{Queue}.dead.inbox";

    /// <summary>
    /// The live channel's exchange, <c>{Exchange}.live</c> (direct): the consumer publishes a live notification with its
    /// subscriber as the routing key; each gateway node binds its own queue under the subscribers connected to it
    /// (docs/live.md). Unroutable means no app of the subscriber is connected: its pending row waits.
    /// </summary>
    public string LiveExchange => $"{Exchange}.live";

    /// <summary>The start of each gateway node's own queue's name, <c>{Queue}.live.node.</c>, then the node's.</summary>
    public string LiveNodeQueuePrefix => $"{Queue}.live.node.";

    /// <summary>The work queue's delay queue of retry number <paramref name="attempt"/> (1-based).</summary>
    public string RetryQueue(int attempt) => RetryQueue(Queue, attempt);

    /// <summary>
    /// The delay queue of retry number <paramref name="attempt"/> (1-based) of one lane's work queue: a retry
    /// returns to the lane it came from (<c>{Queue}.retry.N</c>, <c>{Queue}.urgent.retry.N</c>).
    /// </summary>
    public static string RetryQueue(string workQueue, int attempt) => $"{workQueue}.retry.{attempt}";

    /// <summary>
    /// The broker nodes to connect to: <see cref="Endpoints"/>, or the host and port of <see cref="Uri"/>. An
    /// <c>amqps://</c> <see cref="Uri"/> means TLS to every node (port 5671 when left out), each node's certificate
    /// checked against its host name and <see cref="CaCertificate"/> (read here) or the system's roots.
    /// </summary>
    public IReadOnlyList<AmqpTcpEndpoint> BrokerEndpoints()
    {
        var nodes = Nodes();
        if (!UsesTls)
        {
            return [.. nodes];
        }

        // Not disposed: the nodes' validation callbacks keep it for the connection's life (and its recoveries).
        var ca = string.IsNullOrWhiteSpace(CaCertificate) ? null : BrokerCertificateTrust.LoadCa(CaCertificate);
        return [.. nodes.Select(e =>
        {
            e.Ssl = BrokerCertificateTrust.For(e.HostName, ca);  // an endpoint without its own port now defaults to 5671
            return e;
        })];
    }

    /// <summary>True for an <c>amqps://</c> <see cref="Uri"/>: TLS to every node.</summary>
    public bool UsesTls => string.Equals(Uri.Scheme, "amqps", StringComparison.OrdinalIgnoreCase);

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        string? error = null;
        try
        {
            if (Nodes().Any(e => e.Port is <= 0 or > 65535 || string.IsNullOrWhiteSpace(e.HostName)))
            {
                error = $"RabbitMq:Endpoints '{Endpoints}': every entry needs a host (and a port in 1-65535 if given)";
            }
        }
        catch (Exception ex) when (ex is FormatException or ArgumentException or OverflowException)
        {
            error = $"RabbitMq:Endpoints '{Endpoints}' is not a comma-separated host:port list: {ex.Message}";
        }

        if (error is not null)
        {
            yield return new ValidationResult(error, [nameof(Endpoints)]);
        }

        if (!string.IsNullOrWhiteSpace(CaCertificate))
        {
            if (!UsesTls)
            {
                yield return new ValidationResult(
                    $"RabbitMq:CaCertificate is set but RabbitMq:Uri is {Uri.Scheme}://, not amqps://: the CA would never be used", [nameof(CaCertificate)]);
            }
            else if (CaError(CaCertificate) is { } caError)
            {
                yield return new ValidationResult(caError, [nameof(CaCertificate)]);
            }
        }
    }

    private AmqpTcpEndpoint[] Nodes() =>
        string.IsNullOrWhiteSpace(Endpoints) ? [new AmqpTcpEndpoint(Uri.Host, Uri.Port)] : AmqpTcpEndpoint.ParseMultiple(Endpoints);

    private static string? CaError(string path)
    {
        try
        {
            BrokerCertificateTrust.LoadCa(path);
            return null;
        }
        catch (InvalidOperationException ex)
        {
            return ex.Message;
        }
    }

    private const string NamePattern = "^[A-Za-z0-9_.:-]{1,200}$";
}
