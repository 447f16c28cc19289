using System.Globalization;
using System.Text.RegularExpressions;

namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// A message rate written as mail transfer agents write it: <c>100/s</c>, <c>3000/min</c>, <c>20000/h</c>
/// (also <c>/sec</c>, <c>/second</c>, <c>/m</c>, <c>/minute</c>, <c>/hour</c>). Held as the interval between two messages.
/// </summary>
internal readonly partial record struct Rate(double Count, TimeSpan Per)
{
    /// <summary>Time between two messages at this rate (GCRA's emission interval).</summary>
    public TimeSpan Interval => Per / Count;

    /// <summary>Messages per second.</summary>
    public double PerSecond => Count / Per.TotalSeconds;

    public static bool TryParse(string? text, out Rate rate, out string? error)
    {
        rate = default;
        var match = text is null ? Match.Empty : Pattern().Match(text);
        if (!match.Success)
        {
            error = $"'{text}' is not a rate; write e.g. 100/s, 3000/min or 20000/h";
            return false;
        }

        double count = double.Parse(match.Groups["count"].Value, CultureInfo.InvariantCulture);
        var per = match.Groups["unit"].Value.ToLowerInvariant() switch
        {
            "s" or "sec" or "second" => TimeSpan.FromSeconds(1),
            "m" or "min" or "minute" => TimeSpan.FromMinutes(1),
            _ => TimeSpan.FromHours(1),
        };
        rate = new Rate(count, per);
        // The database keeps intervals in whole microseconds: from 1 per day to 100,000 per second.
        if (count <= 0 || rate.Interval < TimeSpan.FromMicroseconds(10) || rate.Interval > TimeSpan.FromDays(1))
        {
            error = $"'{text}' is out of range (from 1 per day up to 100000/s)";
            return false;
        }

        error = null;
        return true;
    }

    public override string ToString() => string.Create(CultureInfo.InvariantCulture, $"{Count}/{(Per.TotalSeconds switch { 1 => "s", 60 => "min", _ => "h" })}");

    [GeneratedRegex(@"^\s*(?<count>\d+(\.\d+)?)\s*/\s*(?<unit>s|sec|second|m|min|minute|h|hour)\s*$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant)]
    private static partial Regex Pattern();
}
