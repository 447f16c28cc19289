namespace Notifications.Shared.Messaging;

/// <summary>
/// When the producer published a message, in Unix milliseconds, under <c>x-published-at</c> (the AMQP <c>timestamp</c>
/// property holds whole seconds, and the outbox row's insert time besides). The consumer reads it for the queue-wait
/// hop. The two instants come from two clocks: on one host they agree; across hosts the figure is off by their skew.
/// </summary>
public static class PublishedAtHeader
{
    /// <summary>The header's name.</summary>
    public const string Name = "x-published-at";

    /// <summary>Stamps the headers with now (creating the table if there is none yet).</summary>
    public static IDictionary<string, object?> Stamp(IDictionary<string, object?>? headers, TimeProvider time)
    {
        headers ??= new Dictionary<string, object?>(2);
        headers[Name] = time.GetUtcNow().ToUnixTimeMilliseconds();
        return headers;
    }

    /// <summary>The stamp, if the message has one (as a long, or an int from some other publisher).</summary>
    public static bool TryRead(IDictionary<string, object?>? headers, out long unixMilliseconds)
    {
        unixMilliseconds = headers is not null && headers.TryGetValue(Name, out object? value) ? value switch
        {
            long l => l,
            int i => i,
            _ => 0,
        } : 0;
        return unixMilliseconds > 0;
    }
}
