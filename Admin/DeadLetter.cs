using System.Globalization;
using System.Text;
using System.Text.Json;
using RabbitMQ.Client;

namespace Notifications.Admin;

/// <summary>One message of the dead-letter queue as the admin shows it: why, how often tried, when, and the original bytes.</summary>
internal sealed record DeadLetter(
    int Position,
    ulong DeliveryTag,
    long? NotificationId,
    string Reason,
    int? Attempts,
    DateTimeOffset? DeadAt,
    IReadOnlyBasicProperties Properties,
    byte[] Body)
{
    public const string ReasonHeader = "x-dead-reason";
    public const string AttemptsHeader = "x-dead-attempts";
    public const string DeadAtHeader = "x-dead-at";
    public const string AttemptHeader = "x-attempt";

    public static DeadLetter From(int position, BasicGetResult message)
    {
        var headers = message.BasicProperties.Headers;
        long? deadAtMs = Number(headers, DeadAtHeader);
        return new DeadLetter(
            position,
            message.DeliveryTag,
            NotificationIdOf(message.Body.Span),
            Text(headers, ReasonHeader) ?? BrokerReason(headers) ?? "(no reason header)",
            (int?)Number(headers, AttemptsHeader),
            deadAtMs is { } ms ? DateTimeOffset.FromUnixTimeMilliseconds(ms) : null,
            message.BasicProperties,
            message.Body.ToArray());
    }

    // A message the broker dead-lettered itself (a quorum queue's delivery limit) has no reason of ours,
    // only the broker's x-death entry: e.g. "delivery_limit".
    private static string? BrokerReason(IDictionary<string, object?>? headers) =>
        headers is not null && headers.TryGetValue("x-death", out var deaths) && deaths is IList<object> { Count: > 0 } list
            && list[0] is IDictionary<string, object?> first
            ? $"broker: {Text(first, "reason")} in queue {Text(first, "queue")}"
            : null;

    /// <summary>The body as text: indented JSON when it is JSON, else UTF-8 with invalid bytes shown as \xNN.</summary>
    public string Payload()
    {
        try
        {
            using var document = JsonDocument.Parse(Body);
            return JsonSerializer.Serialize(document.RootElement, new JsonSerializerOptions { WriteIndented = true });
        }
        catch (JsonException)
        {
            var text = new StringBuilder();
            foreach (byte b in Body)
            {
                text.Append(b is >= 0x20 and < 0x7F or (byte)'\n' or (byte)'\t' ? ((char)b).ToString() : $"\\x{b:X2}");
            }

            return text.ToString();
        }
    }

    public static string? Text(IDictionary<string, object?>? headers, string name) =>
        headers is not null && headers.TryGetValue(name, out var value) ? value switch
        {
            byte[] bytes => Encoding.UTF8.GetString(bytes),
            null => null,
            _ => Convert.ToString(value, CultureInfo.InvariantCulture),
        } : null;

    private static long? Number(IDictionary<string, object?>? headers, string name) =>
        headers is not null && headers.TryGetValue(name, out var value) ? value switch
        {
            int i => i,
            long l => l,
            short s => s,
            byte b => b,
            byte[] bytes when long.TryParse(Encoding.UTF8.GetString(bytes), NumberStyles.Integer, CultureInfo.InvariantCulture, out long parsed) => parsed,
            _ => null,
        } : null;

    private static long? NotificationIdOf(ReadOnlySpan<byte> body)
    {
        try
        {
            var reader = new Utf8JsonReader(body);
            using var document = JsonDocument.ParseValue(ref reader);
            return document.RootElement.ValueKind == JsonValueKind.Object
                   && document.RootElement.TryGetProperty("id", out var id) && id.TryGetInt64(out long value) ? value : null;
        }
        catch (JsonException)
        {
            return null;
        }
    }
}
