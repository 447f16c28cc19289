using System.Text.Json;

namespace Notifications.Consumer.Channels.Push;

/// <summary>A push row's custom data: a JSON object of string values (checked by PushRules before it gets here).</summary>
internal static class PushData
{
    /// <summary>The entries of <paramref name="data"/>, in their order; none when it is null.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> Entries(string? data)
    {
        if (data is null)
        {
            return [];
        }

        using var document = JsonDocument.Parse(data);
        return [.. document.RootElement.EnumerateObject().Select(p => KeyValuePair.Create(p.Name, p.Value.GetString() ?? ""))];
    }

    /// <summary>Writes the entries as string properties of the object open in <paramref name="json"/>.</summary>
    public static void Write(Utf8JsonWriter json, IReadOnlyList<KeyValuePair<string, string>> data)
    {
        foreach (var (key, value) in data)
        {
            json.WriteString(key, value);
        }
    }
}
