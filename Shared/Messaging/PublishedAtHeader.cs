namespace Notifications.Shared.Messaging;

/// <summary>
/// When the producer published a message, in Unix milliseconds, under <c>x-published-at</c> (the AMQP <c>timestamp</c>
/// property holds whole seconds, and the outbox row's insert time besides), and when it claimed the rows, under
/// <c>x-claimed-at</c>. The consumer reads the first for the queue-wait hop, and records both in the delivery log (a
/// notification's story). The instants come from two clocks: on one host they agree; across hosts the figure is off by
/// their skew.
/// </summary>
public static class PublishedAtHeader
{
    /// <summary>The header's name.</summary>
    public const string Name = "x-published-at";

    /// <summary>The claim's header's name.</summary>
    public const string ClaimedName = "x-claimed-at";

    /// <summary>
    /// Stamps the headers with now, and with <paramref name="claimedAt"/> if given (creating the table if there is none yet).
    /// </summary>
    public static IDictionary<string, object?> Stamp(IDictionary<string, object?>? headers, TimeProvider time, DateTimeOffset? claimedAt = null)
    {
        headers ??= new Dictionary<string, object?>(2);
        headers[Name] = time.GetUtcNow().ToUnixTimeMilliseconds();
        if (claimedAt is { } claimed)
        {
            headers[ClaimedName] = claimed.ToUnixTimeMilliseconds();
        }

        return headers;
    }

    /// <summary>The stamp, if the message has one (as a long, or an int from some other publisher).</summary>
    public static bool TryRead(IDictionary<string, object?>? headers, out long unixMilliseconds) =>
        TryRead(headers, Name, out unixMilliseconds);

    /// <summary>The stamp <paramref name="name"/> as an instant, if the message has one.</summary>
    public static DateTimeOffset? Read(IDictionary<string, object?>? headers, string name) =>
        TryRead(headers, name, out long unixMilliseconds) ? DateTimeOffset.FromUnixTimeMilliseconds(unixMilliseconds) : null;

    private static bool TryRead(IDictionary<string, object?>? headers, string name, out long unixMilliseconds)
    {
        unixMilliseconds = headers is not null && headers.TryGetValue(name, out object? value) ? value switch
        {
            long l => l,
            int i => i,
            _ => 0,
        } : 0;
        return unixMilliseconds > 0;
    }
}
