using System.Text.RegularExpressions;
using Notifications.Shared.Hosting;

namespace Notifications.Shared.Messaging;

/// <summary>
/// The configure/write/read regular expressions of one broker user on the vhost (RabbitMQ's per-vhost permissions,
/// matched against exchange and queue names alike).
/// </summary>
/// <param name="Configure">Declare (not passively) and delete.</param>
/// <param name="Write">Publish to an exchange; bind a queue (with read on the exchange).</param>
/// <param name="Read">Consume, get and purge a queue; bind from an exchange.</param>
public sealed record BrokerPermissions(string Configure, string Write, string Read)
{
    /// <summary>Matches no name (not even the default exchange, <c>amq.default</c>).</summary>
    public const string Nothing = "^$";

    /// <summary>
    /// The producer: publishes to the exchange, nothing else. It declares nothing (a passive check of the exchange and
    /// the work queues needs no permission) and reads no queue, so it can neither consume nor purge.
    /// </summary>
    public static BrokerPermissions Producer(RabbitMqOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new(Nothing, $"^{Escape(options.Exchange)}$", Nothing);
    }

    /// <summary>
    /// The consumer: declares the topology (the exchange, the work, delay, dead-letter and rate-limit lane queues —
    /// configure, and write/read for the bindings and the dead-letter arguments), consumes the work, delay and lane
    /// queues and the broker's dead-letter inbox (<c>{Queue}.dead.inbox</c>, recorded and moved on) and publishes through
    /// the exchange and the live exchange (<c>{Exchange}.live</c>, which it declares as well). It does not read the
    /// dead-letter queue.
    /// </summary>
    public static BrokerPermissions Consumer(RabbitMqOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        string exchange = Escape(options.Exchange);
        string queue = Escape(options.Queue);
        string readable = $@"{exchange}|{queue}(\.urgent)?(\.retry\.[0-9]+)?|{queue}\.limit\..+|{queue}\.dead\.inbox";
        string declared = $@"{readable}|{queue}\.dead|{exchange}\.live";
        return new($"^({declared})$", $"^({declared})$", $"^({readable})$");
    }

    /// <summary>
    /// A gateway node: declares the live exchange (<c>{Exchange}.live</c>) and its own queue (<c>{Queue}.live.node.*</c>),
    /// binds that queue to the exchange under each subscriber connected to it, and consumes it; nothing of the work queues.
    /// </summary>
    public static BrokerPermissions Gateway(RabbitMqOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        string live = $@"{Escape(options.Exchange)}\.live";
        string node = $@"{Escape(options.Queue)}\.live\.node\..+";
        return new($"^({live}|{node})$", $"^{node}$", $"^({live}|{node})$");
    }

    /// <summary>The operators' CLI: reads and purges the dead-letter queue, republishes through the exchange; declares nothing.</summary>
    public static BrokerPermissions Admin(RabbitMqOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        return new(Nothing, $"^{Escape(options.Exchange)}$", $@"^{Escape(options.Queue)}\.dead$");
    }

    // Names are [A-Za-z0-9_.:-] (RabbitMqOptions): only the dot is special in a regex.
    private static string Escape(string name) => Regex.Escape(name);
}
