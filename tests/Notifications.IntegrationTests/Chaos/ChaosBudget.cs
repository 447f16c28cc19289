using System.Globalization;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// How many sends a scenario's fault may have cut mid-send, derived from the settings of the workers it hit.
/// Only such a send can make a duplicate at least once (cut after the server's 250, before the log write) or
/// a loss at most once (marked and acked, never completed): the oracle allows each mode at most this many.
/// A fault that cuts no send (a producer killed, the broker restarted or cut off, 4xx between sends) leaves it 0.
/// </summary>
internal sealed record ChaosBudget(int Sends, string Basis)
{
    public static readonly ChaosBudget None = new(0, "no send cut");

    /// <summary>This budget plus <paramref name="sends"/> more that <paramref name="why"/> may have cut.</summary>
    public ChaosBudget Plus(int sends, string why) =>
        Sends == 0 ? new(sends, why) : new(Sends + sends, $"{Basis} + {why}");

    public override string ToString() => $"{Sends.ToString(CultureInfo.InvariantCulture)} ({Basis})";
}
