using System.Globalization;
using System.Text;

namespace Notifications.Shared.Observability;

/// <summary>
/// Instrument names and units as Prometheus names (OpenTelemetry's conventions): dots become underscores,
/// the unit becomes a suffix (<c>s</c> → <c>_seconds</c>), counters end in <c>_total</c>.
/// </summary>
internal static class PrometheusNaming
{
    public static string MetricName(string instrument, string? unit, MetricKind kind)
    {
        string name = Sanitize(instrument, allowColon: true);
        string suffix = UnitSuffix(unit, kind);
        if (suffix.Length > 0 && !name.EndsWith("_" + suffix, StringComparison.Ordinal))
        {
            name += "_" + suffix;
        }

        return kind == MetricKind.Counter && !name.EndsWith("_total", StringComparison.Ordinal) ? name + "_total" : name;
    }

    public static string LabelName(string key) => Sanitize(key, allowColon: false);

    /// <summary>Label values: backslash, double quote and line feed escaped (exposition format 0.0.4).</summary>
    public static string EscapeLabelValue(string value) =>
        value.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\"", "\\\"", StringComparison.Ordinal)
            .Replace("\n", "\\n", StringComparison.Ordinal);

    /// <summary>HELP text: backslash and line feed escaped.</summary>
    public static string EscapeHelp(string help) =>
        help.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("\n", "\\n", StringComparison.Ordinal);

    /// <summary>A sample value as Go's ParseFloat reads it: NaN, +Inf, -Inf or the shortest round-trip form.</summary>
    public static string FormatValue(double value) => value switch
    {
        double.PositiveInfinity => "+Inf",
        double.NegativeInfinity => "-Inf",
        double.NaN => "NaN",
        _ => value.ToString("R", CultureInfo.InvariantCulture),
    };

    private static string UnitSuffix(string? unit, MetricKind kind) => unit switch
    {
        null or "" => "",
        "s" => "seconds",
        "ms" => "milliseconds",
        "By" => "bytes",
        "1" => kind == MetricKind.Gauge ? "ratio" : "",
        _ when unit.StartsWith('{') => "",   // an annotation such as {message}: not a unit
        _ => Sanitize(unit, allowColon: false),
    };

    private static string Sanitize(string name, bool allowColon)
    {
        var text = new StringBuilder(name.Length);
        foreach (char c in name)
        {
            bool ok = char.IsAsciiLetterOrDigit(c) || c == '_' || (allowColon && c == ':');
            text.Append(ok ? c : '_');
        }

        if (text.Length == 0 || char.IsAsciiDigit(text[0]))
        {
            text.Insert(0, '_');
        }

        return text.ToString();
    }
}
