using System.Globalization;
using System.Text;

namespace Notifications.Harness;

/// <summary>A small self-written SVG: rate per minute against total handlers (log2 x axis), one line per prefetch x batch.</summary>
internal static class SweepPlot
{
    private const int Width = 800;
    private const int Height = 440;
    private const int Left = 90;
    private const int Right = 240;
    private const int Top = 40;
    private const int Bottom = 60;
    private static readonly string[] Colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

    public static string Render(IReadOnlyList<RunResult> runs, string subtitle)
    {
        var svg = new StringBuilder();
        int plotW = Width - Left - Right;
        int plotH = Height - Top - Bottom;
        double[] xs = runs.Select(r => Math.Log2(r.Handlers * r.Consumers)).ToArray();
        double xMin = xs.Min() - 0.25;
        double xMax = xs.Max() + 0.25;
        double yMax = NiceCeiling(runs.Max(r => r.RatePerMinute));
        double X(double x) => Left + ((x - xMin) / Math.Max(0.001, xMax - xMin) * plotW);
        double Y(double y) => Top + plotH - (y / yMax * plotH);

        Append(svg, $"<svg xmlns='http://www.w3.org/2000/svg' width='{Width}' height='{Height}' font-family='sans-serif' font-size='12'>");
        Append(svg, $"<rect width='{Width}' height='{Height}' fill='white'/>");
        Append(svg, $"<text x='{Left}' y='18' font-size='15' font-weight='bold'>Notifications delivered per minute vs concurrent handlers</text>");
        Append(svg, $"<text x='{Left}' y='33' fill='#555'>{subtitle}</text>");
        for (int i = 0; i <= 5; i++)
        {
            double y = yMax * i / 5;
            Append(svg, $"<line x1='{Left}' x2='{Left + plotW}' y1='{Y(y):F1}' y2='{Y(y):F1}' stroke='#ddd'/>");
            Append(svg, $"<text x='{Left - 6}' y='{Y(y) + 4:F1}' text-anchor='end'>{y:N0}</text>");
        }

        foreach (int handlers in runs.Select(r => r.Handlers * r.Consumers).Distinct())
        {
            double x = X(Math.Log2(handlers));
            Append(svg, $"<line x1='{x:F1}' x2='{x:F1}' y1='{Top}' y2='{Top + plotH}' stroke='#eee'/>");
            Append(svg, $"<text x='{x:F1}' y='{Top + plotH + 18}' text-anchor='middle'>{handlers}</text>");
        }

        Append(svg, $"<text x='{Left + (plotW / 2)}' y='{Height - 15}' text-anchor='middle'>handlers (consumers x handlers, log scale)</text>");
        Append(svg, $"<text transform='translate(18,{Top + (plotH / 2)}) rotate(-90)' text-anchor='middle'>delivered / min</text>");
        int series = 0;
        foreach (var group in runs.GroupBy(r => (r.Prefetch, r.Batch)))
        {
            string color = Colors[series % Colors.Length];
            var points = group.OrderBy(r => r.Handlers).Select(r => (X: X(Math.Log2(r.Handlers * r.Consumers)), Y: Y(r.RatePerMinute))).ToList();
            string line = string.Join(' ', points.Select(p => Invariant($"{p.X:F1},{p.Y:F1}")));
            Append(svg, $"<polyline fill='none' stroke='{color}' stroke-width='2' points='{line}'/>");
            points.ForEach(p => Append(svg, $"<circle cx='{p.X:F1}' cy='{p.Y:F1}' r='4' fill='{color}'/>"));
            int ly = Top + 10 + (series * 20);
            Append(svg, $"<line x1='{Width - Right + 15}' x2='{Width - Right + 40}' y1='{ly}' y2='{ly}' stroke='{color}' stroke-width='3'/>");
            Append(svg, $"<text x='{Width - Right + 46}' y='{ly + 4}'>prefetch {group.Key.Prefetch}, batch {group.Key.Batch}</text>");
            series++;
        }

        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    /// <summary>A round axis maximum a little above <paramref name='value'/>.</summary>
    internal static double NiceCeiling(double value)
    {
        double step = Math.Pow(10, Math.Floor(Math.Log10(Math.Max(1, value))));
        return Math.Ceiling(value * 1.1 / step) * step;
    }

    internal static void Append(StringBuilder svg, FormattableString line) => svg.AppendLine(line.ToString(CultureInfo.InvariantCulture));

    private static string Invariant(FormattableString value) => value.ToString(CultureInfo.InvariantCulture);
}
