using System.Globalization;

namespace Notifications.OperatorConsole;

/// <summary>How the pages write instants and counts: UTC and invariant, as the admin tool prints them, whatever the server's culture.</summary>
internal static class ConsoleFormat
{
    public static string Time(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

    public static string Count(long n) => n.ToString("N0", CultureInfo.InvariantCulture);
}
