using System.Diagnostics.CodeAnalysis;
using System.Text.Json;

namespace Notifications.Shared.Contract;

/// <summary>
/// The envelope: several notifications in one AMQP message (type <see cref="EnvelopeType"/>), a JSON array whose
/// elements are exactly the single-notification bodies of <see cref="MessageSerializer"/>. The broker's work per
/// message (publish, confirm, route, persist, deliver, ack) is then paid once for the whole envelope. Each
/// element is unpacked with its own bytes, so a failed item is retried or dead-lettered alone as an ordinary
/// single-notification message.
/// </summary>
public static class EnvelopeSerializer
{
    /// <summary>The AMQP type property of an envelope (its content type is <see cref="MessageSerializer.ContentType"/>).</summary>
    public const string EnvelopeType = "notification-envelope.v1";

    /// <summary>
    /// The AMQP header of an envelope carrying each traced item's W3C <c>traceparent</c>: a table keyed by the
    /// notification id in decimal. Absent when nothing is traced.
    /// </summary>
    public const string ItemTraceParents = "x-item-traceparents";

    /// <summary>The bytes of one envelope holding <paramref name="items"/> (single-notification bodies), in order.</summary>
    public static byte[] Pack(IReadOnlyList<byte[]> items)
    {
        ArgumentNullException.ThrowIfNull(items);
        int length = 2 + Math.Max(0, items.Count - 1);
        foreach (var item in items)
        {
            length += item.Length;
        }

        var envelope = new byte[length];
        envelope[0] = (byte)'[';
        int at = 1;
        for (int i = 0; i < items.Count; i++)
        {
            if (i > 0)
            {
                envelope[at++] = (byte)',';
            }

            items[i].CopyTo(envelope, at);
            at += items[i].Length;
        }

        envelope[at] = (byte)']';
        return envelope;
    }

    /// <summary>The size of an envelope of items totalling <paramref name="itemBytes"/> bytes.</summary>
    public static long PackedLength(int items, long itemBytes) => itemBytes + 2 + Math.Max(0, items - 1);

    /// <summary>
    /// Splits an envelope into its items, each with its own bytes and, if they read as a notification, the
    /// message (else the reason it does not). False, with a reason, only when the body is not a JSON array at all:
    /// bytes on a queue can be anything, and this never throws for them.
    /// </summary>
    public static bool TryUnpack(
        ReadOnlyMemory<byte> body,
        [NotNullWhen(true)] out List<EnvelopeItem>? items,
        [NotNullWhen(false)] out string? error)
    {
        items = null;
        var found = new List<EnvelopeItem>();
        var reader = new Utf8JsonReader(body.Span, new JsonReaderOptions { CommentHandling = JsonCommentHandling.Disallow });
        try
        {
            if (!reader.Read() || reader.TokenType != JsonTokenType.StartArray)
            {
                error = "undeserializable envelope: the body is not a JSON array";
                return false;
            }

            while (reader.Read() && reader.TokenType != JsonTokenType.EndArray)
            {
                int start = (int)reader.TokenStartIndex;
                reader.Skip();
                int end = (int)reader.BytesConsumed;
                byte[] raw = body.Span[start..end].ToArray();
                found.Add(MessageSerializer.TryDeserialize(raw, out var message, out string? reason)
                    ? new EnvelopeItem(raw, message, null)
                    : new EnvelopeItem(raw, null, reason));
            }

            if (reader.TokenType != JsonTokenType.EndArray || reader.Read())
            {
                error = "undeserializable envelope: unexpected data after the array";
                return false;
            }
        }
        catch (JsonException ex)
        {
            error = $"undeserializable envelope: {ex.Message}";
            return false;
        }

        if (found.Count == 0)
        {
            error = "empty envelope: the array holds no notification";
            return false;
        }

        items = found;
        error = null;
        return true;
    }
}

/// <summary>One element of an envelope.</summary>
/// <param name="Body">Its bytes: a single-notification message body, as it is retried or dead-lettered.</param>
/// <param name="Message">The notification, if the bytes read as one.</param>
/// <param name="Error">Why they do not, otherwise.</param>
public sealed record EnvelopeItem(byte[] Body, NotificationMessage? Message, string? Error);
