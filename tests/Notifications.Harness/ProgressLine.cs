using System.Globalization;

namespace Notifications.Harness;

/// <summary>The live line printed about once a second: elapsed, rate now and on average, backlog, queue depth.</summary>
internal sealed class ProgressLine(long seeded)
{
    private TimeSpan _lastAt;
    private long _lastDelivered;

    public void Print(TimeSpan elapsed, long produced, long delivered, long queueDepth)
    {
        double seconds = (elapsed - _lastAt).TotalSeconds;
        double now = seconds <= 0 ? 0 : (delivered - _lastDelivered) / seconds;
        (_lastAt, _lastDelivered) = (elapsed, delivered);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {elapsed.TotalSeconds,6:F1} s  produced {produced,9:N0}  delivered {delivered,9:N0}  {now,8:N0}/s now  "
            + $"{delivered / Math.Max(0.001, elapsed.TotalSeconds),8:N0}/s avg  backlog {Math.Max(0, seeded - produced),9:N0}  queue {queueDepth,8:N0}"));
    }
}
