using System.Security.Cryptography;
using System.Text.Json;
using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels.Push.Apns;

/// <summary>
/// The APNs request: payload <c>{"aps":{"alert":{"title","body"}},…custom data keys}</c>, or <c>{"aps":{"content-available":1},…}</c>
/// for data only (a background push), and its headers: push type, priority (10; 5 for bulk and background), expiration (the row's
/// expiry, 0 when none) and an <c>apns-id</c> derived from the notification id.
/// </summary>
internal static class ApnsPayload
{
    // The namespace of the apns-id UUIDs (version 5, RFC 9562): a fixed random UUID of this fleet.
    private static readonly byte[] IdNamespace = Guid.Parse("8f4c7a0e-3b1d-4c55-9a0e-5d2f6b7c1e90").ToByteArray(bigEndian: true);

    /// <summary>The payload, or null and why when it cannot be sent (a reserved key, over 4 KB).</summary>
    public static byte[]? Build(NotificationMessage message, IReadOnlyList<KeyValuePair<string, string>> data, out string? refused)
    {
        if (data.Any(entry => entry.Key == "aps"))
        {
            refused = "invalid push data for APNs: the key 'aps' is Apple's own";
            return null;
        }

        using var buffer = new MemoryStream(256);
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteStartObject("aps");
            if (IsAlert(message))
            {
                json.WriteStartObject("alert");
                WriteIfAny(json, "title", message.Subject);
                WriteIfAny(json, "body", message.Body);
                json.WriteEndObject();
            }
            else
            {
                json.WriteNumber("content-available", 1);
            }

            json.WriteEndObject();
            PushData.Write(json, data);
            json.WriteEndObject();
        }

        refused = buffer.Length > PushRules.MaxPayloadBytes
            ? $"push payload too large: the APNs payload is {buffer.Length} bytes, over the {PushRules.MaxPayloadBytes}-byte limit"
            : null;
        return refused is null ? buffer.ToArray() : null;
    }

    /// <summary>The headers of <paramref name="message"/>'s request.</summary>
    public static ApnsHeaders Headers(NotificationMessage message)
    {
        bool alert = IsAlert(message);
        return new ApnsHeaders(
            alert ? "alert" : "background",
            // Apple requires 5 for background pushes; bulk ones wait for a convenient moment too.
            alert && !message.IsBulk ? 10 : 5,
            message.ExpiresAt?.ToUnixTimeSeconds() ?? 0,
            IdFor(message.Id));
    }

    /// <summary>The <c>apns-id</c> of a notification: a name-based UUID (version 5) of its id, the same on every attempt.</summary>
    public static Guid IdFor(long notificationId)
    {
        Span<byte> name = stackalloc byte[IdNamespace.Length + sizeof(long)];
        IdNamespace.CopyTo(name);
        System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(name[IdNamespace.Length..], notificationId);
        Span<byte> hash = stackalloc byte[20];
#pragma warning disable CA5350 // SHA-1 is what RFC 9562 prescribes for version 5 UUIDs; nothing here needs collision resistance.
        SHA1.HashData(name, hash);
#pragma warning restore CA5350
        hash[6] = (byte)((hash[6] & 0x0F) | 0x50);
        hash[8] = (byte)((hash[8] & 0x3F) | 0x80);
        return new Guid(hash[..16], bigEndian: true);
    }

    private static bool IsAlert(NotificationMessage message) => !string.IsNullOrEmpty(message.Subject) || !string.IsNullOrEmpty(message.Body);

    private static void WriteIfAny(Utf8JsonWriter json, string name, string? value)
    {
        if (!string.IsNullOrEmpty(value))
        {
            json.WriteString(name, value);
        }
    }
}
