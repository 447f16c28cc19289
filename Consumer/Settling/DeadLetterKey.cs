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
        For(NotificationIdOf(delivery), delivery.MessageId, delivery.Body, delivery.Envelope is null ? null : delivery.EnvelopeIndex,
            RequeuedAt(delivery) is { } requeued ? $"{delivery.Attempt}/requeued:{requeued}" : delivery.Attempt.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// The key of a message's attempt: by notification id when it has one, else by AMQP message id (with the item's place
    /// for an envelope item), else by the bytes' hash; a redelivered envelope's items keep their places and attempt.
    /// </summary>
    public static Guid For(long? notificationId, string? messageId, byte[] body, int? envelopeIndex, int attempt) =>
        For(notificationId, messageId, body, envelopeIndex, attempt.ToString(CultureInfo.InvariantCulture));

    /// <summary>
    /// The key of a message the broker dead-lettered on its own (<paramref name="death"/>: its latest <c>x-death</c> entry's queue,
    /// reason, count and instant, and a requeue instant if any): the same for a copy of it redelivered from the inbox, another one
    /// once it died again (the count grows).
    /// </summary>
    public static Guid ForBrokerDeath(long? notificationId, string? messageId, byte[] body, int? envelopeIndex, string death) =>
        For(notificationId, messageId, body, envelopeIndex, $"broker:{death}");

    private static Guid For(long? notificationId, string? messageId, byte[] body, int? envelopeIndex, string attempt)
    {
        string name = notificationId is { } id
            ? $"id:{id}"
            : messageId is { Length: > 0 } && envelopeIndex is null
                ? $"msg:{messageId}"
                : $"body:{messageId}:{envelopeIndex}:{Convert.ToHexString(SHA256.HashData(body))}";
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

    /// <summary>The notification id of the message, only if the JSON has a real one (the message may be anything).</summary>
    public static long? NotificationIdOf(Delivery delivery) =>
        delivery.Message is { Id: > 0 } message ? message.Id : MessageSerializer.ReadId(delivery.Body);
}
