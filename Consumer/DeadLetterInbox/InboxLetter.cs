using System.Globalization;
using System.Text;
using Notifications.Consumer.Settling;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using RabbitMQ.Client;
using Headers = Notifications.Consumer.Pipeline.Headers;

namespace Notifications.Consumer.DeadLetterInbox;

/// <summary>
/// Turns a message the broker dead-lettered into the dead letters it stands for: the reason from its latest <c>x-death</c> entry,
/// the attempts from <c>x-attempt</c>, the instant of that death; an envelope becomes one dead letter per item. The keys and the
/// instant depend only on the message, so a copy redelivered from the inbox (a recorder crashed before its ack) records nothing new.
/// </summary>
internal static class InboxLetter
{
    /// <summary>The dead letters of one inbox message; <paramref name="now"/> stands in for the instant when the broker left none.</summary>
    public static IReadOnlyList<InboxItem> Split(IReadOnlyBasicProperties properties, byte[] body, DateTimeOffset now)
    {
        ArgumentNullException.ThrowIfNull(properties);
        var death = BrokerDeath.Latest(properties.Headers);
        string reason = death?.Describe() ?? "unknown: found in the dead-letter inbox without an x-death header";
        var at = death?.Time ?? now;
        int attempts = Headers.ReadInt(properties.Headers, Headers.Attempt, 1);
        string keyPart = (death?.KeyPart() ?? $"no x-death/{at.ToUnixTimeMilliseconds()}") + RequeuedAt(properties.Headers);
        if (properties.Type == EnvelopeSerializer.EnvelopeType
            && string.Equals(properties.ContentType, MessageSerializer.ContentType, StringComparison.OrdinalIgnoreCase)
            && EnvelopeSerializer.TryUnpack(body, out var items, out _))
        {
            return [.. items.Select((item, i) => Item(item.Message is { Id: > 0 } m ? m.Id : MessageSerializer.ReadId(item.Body), item.Body,
                MessageSerializer.ContentType, MessageSerializer.MessageType, properties.MessageId, envelopeIndex: i))];
        }

        return [Item(MessageSerializer.ReadId(body), body, properties.ContentType, properties.Type, properties.MessageId, envelopeIndex: null)];

        InboxItem Item(long? id, byte[] bytes, string? contentType, string? type, string? messageId, int? envelopeIndex)
        {
            var key = DeadLetterKey.ForBrokerDeath(id, new(messageId, contentType, type), bytes, envelopeIndex, keyPart);
            var record = new DeadLetterRecord(id, reason, attempts, at)
            {
                Key = key,
                // An item leaves its envelope as a message of its own: the envelope's id is not its id.
                MessageId = envelopeIndex is null ? messageId : null,
                MessageType = type,
                ContentType = contentType,
                Body = bytes,
            };
            var headers = properties.Headers is null ? [] : new Dictionary<string, object?>(properties.Headers);
            headers.Remove(EnvelopeSerializer.ItemTraceParents);
            headers[Headers.DeadKey] = key.ToString();
            headers[Headers.DeadReason] = record.StoredReason;
            headers[Headers.DeadAttempts] = attempts;
            headers[Headers.DeadAt] = record.StoredAt.ToUnixTimeMilliseconds();
            return new InboxItem(record, bytes, contentType, type, record.MessageId, headers);
        }
    }

    private static string RequeuedAt(IDictionary<string, object?>? headers) =>
        headers is not null && headers.TryGetValue(Headers.RequeuedAt, out object? value) && value is not null
            ? "/requeued:" + (value is byte[] bytes ? Encoding.UTF8.GetString(bytes) : Convert.ToString(value, CultureInfo.InvariantCulture))
            : "";
}
