using System.Diagnostics.CodeAnalysis;
using System.Text.Json;

namespace Notifications.Shared.Contract;

/// <summary>Serializes <see cref="NotificationMessage"/> to and from its wire form.</summary>
public static class MessageSerializer
{
    /// <summary>The AMQP content type of every notification message.</summary>
    public const string ContentType = "application/json";

    /// <summary>The AMQP type property, versioning the contract.</summary>
    public const string MessageType = "notification.v1";

    /// <summary>UTF-8 JSON bytes of <paramref name="message"/>.</summary>
    public static byte[] Serialize(NotificationMessage message) =>
        JsonSerializer.SerializeToUtf8Bytes(message, NotificationJsonContext.Default.NotificationMessage);

    /// <summary>
    /// The notification id in <paramref name="body"/>, read without trusting the rest of it: a JSON object's
    /// "id" when it is a positive whole number; null for anything else (no id, id 0, not JSON, garbage bytes).
    /// </summary>
    public static long? ReadId(ReadOnlySpan<byte> body)
    {
        try
        {
            var reader = new Utf8JsonReader(body);
            using var document = JsonDocument.ParseValue(ref reader);
            return document.RootElement.ValueKind == JsonValueKind.Object
                   && document.RootElement.TryGetProperty("id", out var id) && id.ValueKind == JsonValueKind.Number
                   && id.TryGetInt64(out long value) && value > 0 ? value : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// Reads a message; on failure returns false and a reason fit for a dead-letter header.
    /// Never throws for bad input: bytes on a queue can be anything.
    /// </summary>
    public static bool TryDeserialize(
        ReadOnlySpan<byte> body,
        [NotNullWhen(true)] out NotificationMessage? message,
        [NotNullWhen(false)] out string? error)
    {
        try
        {
            message = JsonSerializer.Deserialize(body, NotificationJsonContext.Default.NotificationMessage);
            error = message is null ? "undeserializable: the body is JSON null" : null;
            return message is not null;
        }
        catch (JsonException ex)
        {
            message = null;
            error = $"undeserializable: {ex.Message}";
            return false;
        }
    }
}
