using System.Text.Json.Serialization;

namespace Notifications.Client;

/// <summary>Source-generated JSON for a push notification's data (trimming- and AOT-safe).</summary>
[JsonSerializable(typeof(IReadOnlyDictionary<string, string>))]
internal sealed partial class ChannelJsonContext : JsonSerializerContext;
