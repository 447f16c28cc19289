using System.Text.Json;

namespace Notifications.Shared.Observability;

/// <summary>
/// The wire form of <c>/presence</c>, written by a gateway's operations endpoint and read by the operators' console: the totals
/// and the first <see cref="MaxListed"/> subscribers by id,
/// <c>{"subscribers":2,"connections":3,"listed":[{"subscriber":"ana","connections":2},{"subscriber":"bo","connections":1}]}</c>.
/// </summary>
public static class PresenceJson
{
    /// <summary>The most subscribers one answer lists (a node may hold 100,000: the totals count them all).</summary>
    public const int MaxListed = 1_000;

    /// <summary>The presence as UTF-8 JSON.</summary>
    public static byte[] Write(IReadOnlyList<PresenceReading> presence)
    {
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteNumber("subscribers", presence.Count);
            json.WriteNumber("connections", presence.Sum(p => (long)p.Connections));
            json.WriteStartArray("listed");
            foreach (var reading in presence.OrderBy(p => p.Subscriber, StringComparer.Ordinal).Take(MaxListed))
            {
                json.WriteStartObject();
                json.WriteString("subscriber", reading.Subscriber);
                json.WriteNumber("connections", reading.Connections);
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        return buffer.ToArray();
    }

    /// <summary>The totals and the listed subscribers of <paramref name="utf8"/>; throws <see cref="JsonException"/> or <see cref="KeyNotFoundException"/> when it is not this form.</summary>
    public static (int Subscribers, long Connections, IReadOnlyList<PresenceReading> Listed) Read(ReadOnlySpan<byte> utf8)
    {
        var reader = new Utf8JsonReader(utf8);
        using var document = JsonDocument.ParseValue(ref reader);
        var root = document.RootElement;
        var listed = root.GetProperty("listed").EnumerateArray()
            .Select(p => new PresenceReading(p.GetProperty("subscriber").GetString() ?? "", p.GetProperty("connections").GetInt32()))
            .ToList();
        return (root.GetProperty("subscribers").GetInt32(), root.GetProperty("connections").GetInt64(), listed);
    }
}
