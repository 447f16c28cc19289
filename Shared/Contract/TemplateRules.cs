using System.Text.Json;

namespace Notifications.Shared.Contract;

/// <summary>
/// The template check at enqueue, shared by the admin tool (which writes a version's variables) and the client (which
/// reads them). Plain .NET only: this file is compiled into the client package as well. The <c>template.variables</c>
/// column (migration 024) holds a version's top-level variable names as a JSON array of strings, e.g.
/// <c>["customer","order"]</c>; NULL for a version put before 024, which is not checked.
/// </summary>
internal static class TemplateRules
{
    /// <summary>The column value for <paramref name="names"/>: a JSON array of strings.</summary>
    public static string Format(IEnumerable<string> names) => JsonSerializer.Serialize(names.ToArray(), TemplateRulesJson.Default.StringArray);

    /// <summary>The names in a <c>variables</c> column value; null for NULL (not checked) or a value that is not a JSON array of strings.</summary>
    public static IReadOnlyList<string>? Parse(string? stored)
    {
        if (stored is null)
        {
            return null;
        }

        try
        {
            return JsonSerializer.Deserialize(stored, TemplateRulesJson.Default.StringArray);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>
    /// The variables the version that renders <paramref name="wanted"/> needs, as the consumer chooses it
    /// (<c>LocaleFallback</c>): the wanted locale or a parent (<c>pt-BR</c>, then <c>pt</c>) when one is stored; otherwise
    /// the consumer takes a default the client cannot see, so only the variables every locale's newest version needs.
    /// Null (no check) when the template is unknown or the version that may render has no recorded variables.
    /// </summary>
    public static IReadOnlyList<string>? Required(IReadOnlyList<TemplateVariablesRow> rows, string? wanted)
    {
        var newest = rows.GroupBy(r => r.Locale, StringComparer.OrdinalIgnoreCase).Select(g => g.MaxBy(r => r.Version)!).ToList();
        if (newest.Count == 0)
        {
            return null;
        }

        for (string? tag = wanted?.Trim().Replace('_', '-'); !string.IsNullOrEmpty(tag); tag = Parent(tag))
        {
            if (newest.Find(r => string.Equals(r.Locale, tag, StringComparison.OrdinalIgnoreCase)) is { } chosen)
            {
                return Parse(chosen.Variables);
            }
        }

        var all = newest.Select(r => Parse(r.Variables)).ToList();
        return all.Any(v => v is null) ? null : all.Aggregate((a, b) => a!.Intersect(b!, StringComparer.Ordinal).ToList());
    }

    /// <summary>The names of <paramref name="required"/> that <paramref name="templateData"/> (a JSON object) lacks; none when it is not a JSON object (the outbox's check refuses it).</summary>
    public static IReadOnlyList<string> Missing(IReadOnlyList<string> required, string templateData)
    {
        try
        {
            using var document = JsonDocument.Parse(templateData);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                return [];
            }

            var root = document.RootElement;
            return required.Where(name => !root.TryGetProperty(name, out _)).ToList();
        }
        catch (JsonException)
        {
            return [];
        }
    }

    /// <summary>Why an enqueue of <paramref name="template"/> is refused when its data lacks <paramref name="missing"/>.</summary>
    public static string Refusal(string template, IReadOnlyList<string> missing) =>
        $"TemplateData refused: template '{template}' uses {string.Join(", ", missing.Select(m => $"'{m}'"))}, missing from the data " +
        "(the consumer would dead-letter it: every variable the template uses must be in the data, null is fine).";

    /// <summary>Why an enqueue naming <paramref name="template"/>, which has no version in any locale, is refused.</summary>
    public static string Unknown(string template) =>
        $"TemplateName refused: template '{template}' has no version in any locale (the consumer would dead-letter it as an " +
        "unknown template): put it first with 'notifications-admin templates put'.";

    // "zh-Hant-TW" -> "zh-Hant" -> "zh" -> null, as LocaleFallback.
    private static string? Parent(string tag)
    {
        int dash = tag.LastIndexOf('-');
        return dash > 0 ? tag[..dash] : null;
    }
}

/// <summary>One stored version's locale, number and <c>variables</c> column.</summary>
internal sealed record TemplateVariablesRow(string Locale, int Version, string? Variables);

[System.Text.Json.Serialization.JsonSerializable(typeof(string[]))]
internal sealed partial class TemplateRulesJson : System.Text.Json.Serialization.JsonSerializerContext;
