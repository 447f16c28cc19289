using System.Text.Json;

namespace Notifications.Shared.Observability;

/// <summary>
/// The wire form of <c>/breakers</c>, written by the operations endpoint and read by the operators' console:
/// <c>{"breakers":[{"name":"relay","state":"closed","since":"2026-11-30T12:00:00+00:00"}]}</c>.
/// </summary>
public static class BreakerJson
{
    /// <summary>The breakers as UTF-8 JSON.</summary>
    public static byte[] Write(IReadOnlyList<BreakerReading> breakers)
    {
        using var buffer = new MemoryStream();
        using (var json = new Utf8JsonWriter(buffer))
        {
            json.WriteStartObject();
            json.WriteStartArray("breakers");
            foreach (var breaker in breakers)
            {
                json.WriteStartObject();
                json.WriteString("name", breaker.Name);
                json.WriteString("state", breaker.State);
                json.WriteString("since", breaker.Since);
                json.WriteEndObject();
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        return buffer.ToArray();
    }

    /// <summary>The breakers in <paramref name="utf8"/>; throws <see cref="JsonException"/> or <see cref="KeyNotFoundException"/> when it is not this form.</summary>
    public static IReadOnlyList<BreakerReading> Read(ReadOnlySpan<byte> utf8)
    {
        var reader = new Utf8JsonReader(utf8);
        using var document = JsonDocument.ParseValue(ref reader);
        return document.RootElement.GetProperty("breakers").EnumerateArray()
            .Select(b => new BreakerReading(
                b.GetProperty("name").GetString() ?? "", b.GetProperty("state").GetString() ?? "", b.GetProperty("since").GetDateTimeOffset()))
            .ToList();
    }
}
