using System.Globalization;
using System.Security.Cryptography;
using System.Text;
using Notifications.Consumer.Pipeline;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Settling;

/// <summary>
/// The <c>dead_letter</c> key of one delivery attempt: a name-based UUID (SHA-256, version 8) of what identifies the
/// delivered message and its attempt, so a copy redelivered after a crash between the row and the publish has the same
/// key as the first (one row, and its publish finishes that dead letter instead of leaving the row without a message).
/// </summary>
internal static class DeadLetterKey
{
    /// <summary>
    /// The key of <paramref name="delivery"/>'s attempt. A message requeued from the dead-letter queue starts again at attempt 1:
    /// its requeue instant (<c>x-requeued-at</c>) makes that a new series of attempts, with new keys.
    /// </summary>
    public static Guid For(Delivery delivery) =>
        For(NotificationIdOf(delivery), new(delivery.MessageId, delivery.ContentType, delivery.Type), delivery.Body,
            delivery.Envelope is null ? null : delivery.EnvelopeIndex,
            RequeuedAt(delivery) is { } requeued ? $"{delivery.Attempt}/requeued:{requeued}" : delivery.Attempt.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// The key of a message's attempt: by notification id when it has one; else by AMQP message id (with the item's place
    /// for an envelope item), else by the bytes' hash, each with the content type and type the bytes were read as (the same
    /// bytes under other properties are another message, dead-lettered for another reason). A redelivered envelope's items
    /// keep their places and attempt.
    /// </summary>
    public static Guid For(long? notificationId, MessageProperties properties, byte[] body, int? envelopeIndex, int attempt) =>
        For(notificationId, properties, body, envelopeIndex, attempt.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// The key of a message the broker dead-lettered on its own (<paramref name="death"/>: its latest <c>x-death</c> entry's queue,
    /// reason, count and instant, and a requeue instant if any): the same for a copy of it redelivered from the inbox, another one
    /// once it died again (the count grows).
    /// </summary>
    public static Guid ForBrokerDeath(long? notificationId, MessageProperties properties, byte[] body, int? envelopeIndex, string death) =>
        For(notificationId, properties, body, envelopeIndex, $"broker:{death}");

    private static Guid For(long? notificationId, MessageProperties properties, byte[] body, int? envelopeIndex, string attempt)
    {
        // Lengths before the free-form values, so that no two different sets of properties make the same name.
        string read = $"{properties.ContentType?.Length}:{properties.ContentType}/{properties.Type?.Length}:{properties.Type}";
        string name = notificationId is { } id
            ? $"id:{id}"
            : properties.MessageId is { Length: > 0 } messageId && envelopeIndex is null
                ? $"msg:{messageId}/as:{read}"
                : $"body:{properties.MessageId}:{envelopeIndex}:{Convert.ToHexString(SHA256.HashData(body))}/as:{read}";
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(Encoding.UTF8.GetBytes($"dead-letter/{name}/attempt:{attempt}"), hash);
        var bytes = hash[..16];
        bytes[6] = (byte)((bytes[6] & 0x0F) | 0x80); // version 8 (RFC 9562: custom, name-based here)
        bytes[8] = (byte)((bytes[8] & 0x3F) | 0x80); // variant 10
        return new Guid(bytes, bigEndian: true);
    }

    private static string? RequeuedAt(Delivery delivery) =>
        delivery.Headers is { } headers && headers.TryGetValue(Headers.RequeuedAt, out object? value) && value is not null
            ? value is byte[] bytes ? Encoding.UTF8.GetString(bytes) : Convert.ToString(value, CultureInfo.InvariantCulture)
            : null;

    /// <summary>What names a message without a notification id besides its bytes: its AMQP message id, content type and type.</summary>
    public readonly record struct MessageProperties(string? MessageId, string? ContentType, string? Type);

    /// <summary>The notification id of the message, only if the JSON has a real one (the message may be anything).</summary>
    public static long? NotificationIdOf(Delivery delivery) =>
        delivery.Message is { Id: > 0 } message ? message.Id : MessageSerializer.ReadId(delivery.Body);
}
