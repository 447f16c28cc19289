using System.Globalization;
using System.Text;
using System.Text.Json;
using Notifications.Shared.Contract;
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
    public const string KeyHeader = "x-dead-key";

    /// <summary>The key of its row in the <c>dead_letter</c> table; null for a dead letter from before keys.</summary>
    public Guid? Key => Guid.TryParse(Text(Properties.Headers, KeyHeader), out var key) ? key : null;

    public static DeadLetter From(int position, BasicGetResult message)
    {
        var headers = message.BasicProperties.Headers;
        long? deadAtMs = Number(headers, DeadAtHeader);
        return new DeadLetter(
            position,
            message.DeliveryTag,
            MessageSerializer.ReadId(message.Body.Span),
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
            return Escaped(oneLine: false);
        }
    }

    /// <summary>The start of the body on one line: UTF-8 text, line breaks as \n, control characters and invalid bytes escaped.</summary>
    public string Excerpt(int length)
    {
        string text = Escaped(oneLine: true);
        return text.Length <= length ? text : text[..(length - 1)] + "…";
    }

    /// <summary>What a message without a notification id is: its type, content type, size and the start of its body.</summary>
    public string Description(int excerptLength) => FormattableString.Invariant(
        $"type {Properties.Type ?? "-"}, content type {Properties.ContentType ?? "-"}, {Body.Length} bytes: {Excerpt(excerptLength)}");

    private string Escaped(bool oneLine)
    {
        var text = new StringBuilder();
        ReadOnlySpan<byte> rest = Body;
        while (!rest.IsEmpty)
        {
            if (Rune.DecodeFromUtf8(rest, out var rune, out int used) != System.Buffers.OperationStatus.Done)
            {
                text.Append(CultureInfo.InvariantCulture, $"\\x{rest[0]:X2}");
                rest = rest[1..];
                continue;
            }

            text.Append(rune.Value switch
            {
                '\n' or '\t' when !oneLine => rune.ToString(),
                '\n' => "\\n",
                '\t' => "\\t",
                '\r' => "\\r",
                _ when Rune.IsControl(rune) => string.Create(CultureInfo.InvariantCulture, $"\\u{rune.Value:X4}"),
                _ => rune.ToString(),
            });
            rest = rest[used..];
        }

        return text.ToString();
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
}
