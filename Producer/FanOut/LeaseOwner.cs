using System.Globalization;

namespace Notifications.Producer.FanOut;

/// <summary>
/// The names fan-out leases are held under: host, process and this run (a restarted process takes its old jobs over once
/// they expire), then who in the process holds them.
/// </summary>
internal static class LeaseOwner
{
    /// <summary>A name of its own for <paramref name="holder"/> (a stage's worker, the claim), unique to this run.</summary>
    public static string New(string holder) => string.Create(
        CultureInfo.InvariantCulture, $"{Truncate(Environment.MachineName, 40)}:{Environment.ProcessId}:{Guid.NewGuid():N}:{holder}");

    private static string Truncate(string value, int length) => value.Length <= length ? value : value[..length];
}
