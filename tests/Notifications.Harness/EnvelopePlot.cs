using System.Globalization;
using System.Text;

namespace Notifications.Harness;

/// <summary>
/// The envelope sweep as an SVG: delivered per minute (backlog runs, left axis) and, when measured, p99 from
/// outbox commit to SMTP accepted at a steady rate (right axis), against the envelope size (log scale); the
/// CPU per notification of each run is written under its point.
/// </summary>
internal static class EnvelopePlot
{
    private const int Width = 860;
    private const int Height = 470;
    private const int Left = 90;
    private const int Right = 90;
    private const int Top = 50;
    private const int Bottom = 90;
    private const string RateColor = "#1f77b4";
    private const string LatencyColor = "#d62728";

    public static string Render(IReadOnlyList<RunResult> runs, IReadOnlyList<RunResult> latencies, int offeredRate, string subtitle)
    {
        var svg = new StringBuilder();
        int plotW = Width - Left - Right;
        int plotH = Height - Top - Bottom;
        var sizes = runs.Select(r => r.Envelope).Concat(latencies.Select(l => l.Envelope)).Distinct().Order().ToList();
        double xMin = Math.Log10(sizes.Min()) - 0.15;
        double xMax = Math.Log10(sizes.Max()) + 0.15;
        double rateMax = SweepPlot.NiceCeiling(runs.Max(r => r.RatePerMinute));
        double latencyMax = latencies.Count == 0 ? 1 : SweepPlot.NiceCeiling(latencies.Max(l => l.LatencyP99Ms));
        double X(int envelope) => Left + ((Math.Log10(envelope) - xMin) / Math.Max(0.001, xMax - xMin) * plotW);
        double YRate(double y) => Top + plotH - (y / rateMax * plotH);
        double YLatency(double y) => Top + plotH - (y / latencyMax * plotH);

        SweepPlot.Append(svg, $"<svg xmlns='http://www.w3.org/2000/svg' width='{Width}' height='{Height}' font-family='sans-serif' font-size='12'>");
        SweepPlot.Append(svg, $"<rect width='{Width}' height='{Height}' fill='white'/>");
        SweepPlot.Append(svg, $"<text x='{Left}' y='18' font-size='15' font-weight='bold'>Notifications per AMQP message (envelope) against rate and p99</text>");
        SweepPlot.Append(svg, $"<text x='{Left}' y='35' fill='#555'>{subtitle}</text>");
        for (int i = 0; i <= 5; i++)
        {
            double rate = rateMax * i / 5;
            SweepPlot.Append(svg, $"<line x1='{Left}' x2='{Left + plotW}' y1='{YRate(rate):F1}' y2='{YRate(rate):F1}' stroke='#ddd'/>");
            SweepPlot.Append(svg, $"<text x='{Left - 6}' y='{YRate(rate) + 4:F1}' text-anchor='end' fill='{RateColor}'>{rate:N0}</text>");
            if (latencies.Count > 0)
            {
                SweepPlot.Append(svg, $"<text x='{Left + plotW + 6}' y='{YRate(rate) + 4:F1}' fill='{LatencyColor}'>{latencyMax * i / 5:N0}</text>");
            }
        }

        foreach (int size in sizes)
        {
            double x = X(size);
            SweepPlot.Append(svg, $"<line x1='{x:F1}' x2='{x:F1}' y1='{Top}' y2='{Top + plotH}' stroke='#eee'/>");
            SweepPlot.Append(svg, $"<text x='{x:F1}' y='{Top + plotH + 18}' text-anchor='middle'>{size}</text>");
            if (runs.FirstOrDefault(r => r.Envelope == size)?.Cpu is { } cpu)
            {
                SweepPlot.Append(svg, $"<text x='{x:F1}' y='{Top + plotH + 34}' text-anchor='middle' fill='#555'>{cpu.TotalMicros:F0} µs</text>");
            }
        }

        SweepPlot.Append(svg, $"<text x='{Left + (plotW / 2)}' y='{Height - 30}' text-anchor='middle'>envelope size: notifications per AMQP message (log scale); under it, CPU µs per notification, all processes</text>");
        SweepPlot.Append(svg, $"<text transform='translate(20,{Top + (plotH / 2)}) rotate(-90)' text-anchor='middle' fill='{RateColor}'>delivered / min (1-minute backlog run)</text>");
        Series(svg, runs.OrderBy(r => r.Envelope).Select(r => (X(r.Envelope), YRate(r.RatePerMinute))).ToList(), RateColor);
        SweepPlot.Append(svg, $"<text x='{Left + 10}' y='{Height - 10}' fill='{RateColor}'>● delivered per minute</text>");
        if (latencies.Count > 0)
        {
            SweepPlot.Append(svg, $"<text transform='translate({Width - 25},{Top + (plotH / 2)}) rotate(90)' text-anchor='middle' fill='{LatencyColor}'>p99 ms, commit → SMTP accepted at {offeredRate}/s</text>");
            Series(svg, latencies.OrderBy(l => l.Envelope).Select(l => (X(l.Envelope), YLatency(l.LatencyP99Ms))).ToList(), LatencyColor);
            SweepPlot.Append(svg, $"<text x='{Left + 220}' y='{Height - 10}' fill='{LatencyColor}'>● p99 at a steady {offeredRate}/s</text>");
        }

        svg.AppendLine("</svg>");
        return svg.ToString();
    }

    private static void Series(StringBuilder svg, List<(double X, double Y)> points, string color)
    {
        string line = string.Join(' ', points.Select(p => string.Create(CultureInfo.InvariantCulture, $"{p.X:F1},{p.Y:F1}")));
        SweepPlot.Append(svg, $"<polyline fill='none' stroke='{color}' stroke-width='2' points='{line}'/>");
        points.ForEach(p => SweepPlot.Append(svg, $"<circle cx='{p.X:F1}' cy='{p.Y:F1}' r='4' fill='{color}'/>"));
    }
}
