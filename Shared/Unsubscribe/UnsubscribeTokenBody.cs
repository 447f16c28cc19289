using System.Text.Json.Serialization;

namespace Notifications.Shared.Unsubscribe;

// The plaintext inside a token: JSON with one-letter names (a token is in every bulk mail's headers, so short), read
// leniently (unknown members ignored) so that a field added later does not break an older reader during a rollout.
internal sealed class UnsubscribeTokenBody
{
    [JsonPropertyName("n")]
    public long NotificationId { get; set; }

    [JsonPropertyName("a")]
    public string? Address { get; set; }

    [JsonPropertyName("t")]
    public long IssuedAtUnixSeconds { get; set; }

    [JsonPropertyName("c")]
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Category { get; set; }
}

[JsonSerializable(typeof(UnsubscribeTokenBody))]
internal sealed partial class UnsubscribeTokenJsonContext : JsonSerializerContext;
