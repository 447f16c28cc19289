using System.Collections;
using System.Globalization;
using System.Text;
using RabbitMQ.Client;

namespace Notifications.Consumer.DeadLetterInbox;

/// <summary>
/// Why and where the broker dead-lettered a message, from its <c>x-death</c> header: the array's first entry is the latest
/// death (the broker moves an entry to the front when it counts it again). Not <c>x-first-death-reason</c>: a message retried
/// through a delay queue died there first (<c>expired</c>, the way back to its work queue) before its real death.
/// </summary>
/// <param name="Reason">The broker's reason: <c>delivery_limit</c>, <c>expired</c>, <c>rejected</c>, <c>maxlen</c>.</param>
/// <param name="Queue">The queue it died in.</param>
/// <param name="Count">How often it died there for that reason.</param>
/// <param name="Time">When (the broker's instant, whole seconds), if the entry has one.</param>
internal sealed record BrokerDeath(string Reason, string Queue, long Count, DateTimeOffset? Time)
{
    /// <summary>The latest death in <paramref name="headers"/>, or null without an <c>x-death</c> header (then <c>x-first-death-*</c>, if any).</summary>
    public static BrokerDeath? Latest(IDictionary<string, object?>? headers)
    {
        if (headers is null)
        {
            return null;
        }

        if (headers.TryGetValue("x-death", out object? deaths) && deaths is IList { Count: > 0 } list && list[0] is IDictionary<string, object?> latest)
        {
            return new BrokerDeath(Text(latest, "reason") ?? "unknown", Text(latest, "queue") ?? "unknown",
                latest.TryGetValue("count", out object? count) && count is long or int ? Convert.ToInt64(count, CultureInfo.InvariantCulture) : 1,
                latest.TryGetValue("time", out object? time) && time is AmqpTimestamp stamp ? DateTimeOffset.FromUnixTimeSeconds(stamp.UnixTime) : null);
        }

        return Text(headers, "x-first-death-reason") is { } reason
            ? new BrokerDeath(reason, Text(headers, "x-first-death-queue") ?? "unknown", 1, null)
            : null;
    }

    /// <summary>The <c>dead_letter</c> reason: the broker's word first, then what it means here.</summary>
    public string Describe() => $"{Reason}: dead-lettered by the broker from queue '{Queue}'" + Reason switch
    {
        "delivery_limit" => " (handed out more often than its delivery limit without an ack: a consumer crashed or gave it back each time)",
        "expired" => " (its time to live ran out before a consumer took it)",
        "rejected" => " (rejected without requeue)",
        "maxlen" => " (the queue was over its length limit)",
        _ => "",
    };

    /// <summary>What names this death in a dead-letter key: the same for a redelivered copy of it, another after a new death.</summary>
    public string KeyPart() => string.Create(CultureInfo.InvariantCulture, $"{Queue}/{Reason}/{Count}/{Time?.ToUnixTimeSeconds()}");

    private static string? Text(IDictionary<string, object?> table, string name) =>
        table.TryGetValue(name, out object? value) ? value switch
        {
            byte[] bytes => Encoding.UTF8.GetString(bytes),
            null => null,
            _ => Convert.ToString(value, CultureInfo.InvariantCulture),
        } : null;
}
