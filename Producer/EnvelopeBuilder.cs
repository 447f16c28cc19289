using System.Diagnostics;
using System.Globalization;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Messaging;
using RabbitMQ.Client;

namespace Notifications.Producer;

/// <summary>
/// Gathers the serialized rows of one claim into AMQP messages: up to <c>size</c> rows bound for the same queue
/// and within <c>maxBytes</c> travel as one envelope (<see cref="EnvelopeSerializer"/>); a message of one row is
/// the plain single-notification message, exactly as with envelopes off. Each message is stamped with when it was
/// published and, for an outbox claim's rows, when they were claimed (<see cref="PublishedAtHeader"/>).
/// </summary>
internal sealed class EnvelopeBuilder(int size, int maxBytes, DateTimeOffset? claimedAt = null)
{
    private readonly List<byte[]> _bodies = new(Math.Min(size, 1024));
    private readonly List<OutboxRow> _rows = new(Math.Min(size, 1024));
    private readonly List<(long Id, Activity Span)> _spans = [];
    private string _queue = "";
    private long _bytes;

    public bool IsEmpty => _rows.Count == 0;

    /// <summary>Whether <paramref name="body"/> for <paramref name="queue"/> may join what is held (always, when nothing is).</summary>
    public bool Fits(string queue, byte[] body) =>
        IsEmpty || (queue == _queue && _rows.Count < size && EnvelopeSerializer.PackedLength(_rows.Count + 1, _bytes + body.Length) <= maxBytes);

    /// <summary>Adds a row, with its publish span if it is traced.</summary>
    public void Add(string queue, OutboxRow row, byte[] body, Activity? span)
    {
        _queue = queue;
        _rows.Add(row);
        _bodies.Add(body);
        _bytes += body.Length;
        if (span is not null)
        {
            _spans.Add((row.Id, span));
        }
    }

    /// <summary>The message for what is held, and the publish spans it carries; empties the builder.</summary>
    public (string Queue, byte[] Body, BasicProperties Properties, Activity[] Spans) Take()
    {
        var first = _rows[0];
        var properties = new BasicProperties
        {
            Persistent = true,
            ContentType = MessageSerializer.ContentType,
            Timestamp = new AmqpTimestamp(first.CreatedAt.ToUnixTimeSeconds()),
        };
        byte[] body;
        if (_rows.Count == 1)
        {
            body = _bodies[0];
            properties.Type = MessageSerializer.MessageType;
            properties.MessageId = first.Id.ToString(CultureInfo.InvariantCulture);
            if (_spans.Count == 1)
            {
                // The client already sends a header table with every message (its confirm-tracking sequence
                // number); the trace context is one entry more.
                properties.Headers = new Dictionary<string, object?>(2);
                TraceContextHeader.Inject(_spans[0].Span, properties.Headers);
            }
        }
        else
        {
            body = EnvelopeSerializer.Pack(_bodies);
            properties.Type = EnvelopeSerializer.EnvelopeType;
            properties.MessageId = string.Create(CultureInfo.InvariantCulture, $"{first.Id}+{_rows.Count - 1}");
            if (_spans.Count > 0)
            {
                properties.Headers = new Dictionary<string, object?>(1) { [EnvelopeSerializer.ItemTraceParents] = ItemTraceParents() };
            }
        }

        properties.Headers = PublishedAtHeader.Stamp(properties.Headers, TimeProvider.System, claimedAt);
        var taken = (_queue, body, properties, _spans.Select(s => s.Span).ToArray());
        _rows.Clear();
        _bodies.Clear();
        _spans.Clear();
        _bytes = 0;
        return taken;
    }

    // Each traced row's span context under its notification id.
    private Dictionary<string, object?> ItemTraceParents()
    {
        var table = new Dictionary<string, object?>(_spans.Count);
        foreach (var (id, span) in _spans)
        {
            TraceContextHeader.InjectTraceParent(span, table, id.ToString(CultureInfo.InvariantCulture));
        }

        return table;
    }
}
