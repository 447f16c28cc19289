using System.Globalization;
using System.Text.Json;
using Fluid.Values;

namespace Notifications.Shared.Templates;

/// <summary>
/// A notification's template data as Liquid values, read from the JSON without copying it into dictionaries first.
/// Objects are <see cref="TemplateDataObject"/> (strict: a missing member is an error that names its path), arrays
/// are Fluid arrays, numbers decimals, JSON null is nil (present, renders empty).
/// </summary>
internal static class TemplateData
{
    /// <summary>The root object of <paramref name="json"/>; throws <see cref="TemplateException"/> unless it is a JSON object.</summary>
    public static TemplateDataObject Parse(string json, out JsonDocument document)
    {
        try
        {
            document = JsonDocument.Parse(json);
        }
        catch (JsonException ex)
        {
            throw new TemplateException($"template data is not JSON: {ex.Message}", ex);
        }

        if (document.RootElement.ValueKind != JsonValueKind.Object)
        {
            var kind = document.RootElement.ValueKind;
            document.Dispose();
            throw new TemplateException($"template data is not a JSON object but {Describe(kind)}");
        }

        return new TemplateDataObject(document.RootElement, "");
    }

    public static FluidValue ToValue(JsonElement element, string path) => element.ValueKind switch
    {
        JsonValueKind.Object => new TemplateDataObject(element, path),
        JsonValueKind.Array => new ArrayValue(Items(element, path)),
        JsonValueKind.String => new StringValue(element.GetString()!),
        JsonValueKind.Number => NumberValue.Create(element.TryGetDecimal(out decimal d) ? d : (decimal)element.GetDouble()),
        JsonValueKind.True => BooleanValue.True,
        JsonValueKind.False => BooleanValue.False,
        _ => NilValue.Instance,
    };

    private static FluidValue[] Items(JsonElement array, string path)
    {
        var items = new FluidValue[array.GetArrayLength()];
        int i = 0;
        foreach (var item in array.EnumerateArray())
        {
            items[i] = ToValue(item, string.Create(CultureInfo.InvariantCulture, $"{path}[{i}]"));
            i++;
        }

        return items;
    }

    private static string Describe(JsonValueKind kind) => kind switch
    {
        JsonValueKind.Array => "an array",
        JsonValueKind.String => "a string",
        JsonValueKind.Number => "a number",
        JsonValueKind.True or JsonValueKind.False => "a boolean",
        _ => "null",
    };
}
