using System.Globalization;

namespace Notifications.Admin;

/// <summary>Durations as an operator types them: <c>24h</c>, <c>30m</c>, <c>90s</c>, <c>7d</c>, <c>0</c>, or <c>hh:mm:ss</c>.</summary>
internal static class AdminDurations
{
    public static bool TryParse(string text, out TimeSpan value)
    {
        value = TimeSpan.Zero;
        if (text == "0")
        {
            return true;
        }

        if (text.Length > 1 && double.TryParse(text.AsSpan(0, text.Length - 1), NumberStyles.AllowDecimalPoint, CultureInfo.InvariantCulture, out double n))
        {
            TimeSpan? parsed = text[^1] switch
            {
                's' => TimeSpan.FromSeconds(n),
                'm' => TimeSpan.FromMinutes(n),
                'h' => TimeSpan.FromHours(n),
                'd' => TimeSpan.FromDays(n),
                _ => null,
            };
            if (parsed is { } p)
            {
                value = p;
                return true;
            }
        }

        return TimeSpan.TryParse(text, CultureInfo.InvariantCulture, out value) && value >= TimeSpan.Zero;
    }
}
