using System.Text;

namespace Notifications.Shared.Observability;

/// <summary>
/// Writes families in the Prometheus text exposition format 0.0.4: one <c># HELP</c> and one
/// <c># TYPE</c> line per family, then its samples; histograms as cumulative <c>_bucket{le=...}</c>
/// lines ending with <c>le="+Inf"</c>, then <c>_sum</c> and <c>_count</c>.
/// </summary>
internal static class PrometheusTextWriter
{
    /// <summary>The Content-Type of a scrape response.</summary>
    public const string ContentType = "text/plain; version=0.0.4; charset=utf-8";

    public static string Write(IEnumerable<MetricFamily> families)
    {
        var text = new StringBuilder();
        // Two instruments (e.g. of two meters) may map to one name: one header, all their samples.
        foreach (var group in families.GroupBy(f => f.Name, StringComparer.Ordinal).OrderBy(g => g.Key, StringComparer.Ordinal))
        {
            var first = group.First();
            text.Append("# HELP ").Append(first.Name).Append(' ').Append(PrometheusNaming.EscapeHelp(first.Help)).Append('\n');
            text.Append("# TYPE ").Append(first.Name).Append(' ').Append(TypeName(first.Kind)).Append('\n');
            foreach (var family in group.Where(f => f.Kind == first.Kind))
            {
                foreach (var series in family.Snapshot())
                {
                    WriteSeries(text, family, series);
                }
            }
        }

        return text.ToString();
    }

    private static void WriteSeries(StringBuilder text, MetricFamily family, MetricSeries series)
    {
        if (family.Kind != MetricKind.Histogram)
        {
            Sample(text, family.Name, series.Labels, extraLabel: null, PrometheusNaming.FormatValue(series.Value));
            return;
        }

        long[] cumulative = series.CumulativeBuckets();
        var bounds = family.Bounds!;
        for (int i = 0; i < bounds.Length; i++)
        {
            Sample(text, family.Name + "_bucket", series.Labels, $"le=\"{PrometheusNaming.FormatValue(bounds[i])}\"", Count(cumulative[i]));
        }

        long count = cumulative[^1];
        Sample(text, family.Name + "_bucket", series.Labels, "le=\"+Inf\"", Count(count));
        Sample(text, family.Name + "_sum", series.Labels, extraLabel: null, PrometheusNaming.FormatValue(series.Sum));
        Sample(text, family.Name + "_count", series.Labels, extraLabel: null, Count(count));
    }

    private static void Sample(StringBuilder text, string name, string labels, string? extraLabel, string value)
    {
        text.Append(name);
        if (labels.Length > 0 || extraLabel is not null)
        {
            text.Append('{').Append(labels);
            if (labels.Length > 0 && extraLabel is not null)
            {
                text.Append(',');
            }

            text.Append(extraLabel).Append('}');
        }

        text.Append(' ').Append(value).Append('\n');
    }

    private static string Count(long value) => value.ToString(System.Globalization.CultureInfo.InvariantCulture);

    private static string TypeName(MetricKind kind) => kind switch
    {
        MetricKind.Counter => "counter",
        MetricKind.Histogram => "histogram",
        _ => "gauge",
    };
}
