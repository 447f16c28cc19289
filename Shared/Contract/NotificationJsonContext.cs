using System.Text.Json.Serialization;

namespace Notifications.Shared.Contract;

// Source-generated: no reflection on the hot path, and trimming-safe.
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(NotificationMessage))]
internal sealed partial class NotificationJsonContext : JsonSerializerContext;
