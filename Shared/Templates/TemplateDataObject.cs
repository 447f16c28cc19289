using System.Globalization;
using System.Text.Encodings.Web;
using System.Text.Json;
using Fluid;
using Fluid.Values;

namespace Notifications.Shared.Templates;

/// <summary>
/// A JSON object as a Liquid value. Strict mode lives here rather than in Fluid's <c>StrictVariables</c>, which in
/// 2.41 names a missing member by its syntax node's type instead of its name and treats a JSON null as undefined:
/// here a member that is absent throws with its full path (<c>order.items[0].sku</c>); one that is null is nil.
/// </summary>
internal sealed class TemplateDataObject(JsonElement element, string path) : FluidValue
{
    public override FluidValues Type => FluidValues.Dictionary;

    public override ValueTask<FluidValue> GetValueAsync(string name, TemplateContext context)
    {
        if (element.TryGetProperty(name, out var member))
        {
            return new ValueTask<FluidValue>(TemplateData.ToValue(member, path.Length == 0 ? name : $"{path}.{name}"));
        }

        if (name == "size")
        {
            return new ValueTask<FluidValue>(NumberValue.Create(Count()));
        }

        throw new TemplateException($"missing variable '{(path.Length == 0 ? name : $"{path}.{name}")}' (strict mode: every variable the template uses must be in the data)");
    }

    public override ValueTask<FluidValue> GetIndexAsync(FluidValue index, TemplateContext context) =>
        GetValueAsync(index.ToStringValue(), context);

    public override bool Equals(FluidValue other) =>
        other is TemplateDataObject data ? data.ToStringValue() == ToStringValue() : other.IsNil() && Count() == 0;

    public override bool ToBooleanValue() => true;

    public override decimal ToNumberValue() => 0;

    public override string ToStringValue() => element.GetRawText();

    public override object ToObjectValue() => element;

    // An object written as it is prints nothing, as Fluid's own dictionaries do.
    public override ValueTask WriteToAsync(TextWriter writer, TextEncoder encoder, CultureInfo cultureInfo) => default;

    private int Count()
    {
        int count = 0;
        foreach (var _ in element.EnumerateObject())
        {
            count++;
        }

        return count;
    }
}
