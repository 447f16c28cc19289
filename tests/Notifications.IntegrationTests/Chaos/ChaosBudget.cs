using System.Globalization;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// How many sends a scenario's fault may have cut mid-send, derived from what it cut. Only such a send can make a duplicate
/// at least once (cut after the server's 250, before the log write) or a loss at most once (marked and acked, never
/// completed): the oracle allows each mode at most this many. A fault that cuts no send (a producer killed, the broker
/// restarted or cut off, 4xx between sends) leaves it 0. Each cut adds what it can have cut — one send per handler of a
/// killed process, or a count at the receiving end — and never more than the notifications still in flight when it came.
/// </summary>
internal sealed record ChaosBudget(int Sends, string Basis)
{
    public static readonly ChaosBudget None = new(0, "no send cut");

    /// <summary>
    /// This budget plus one cut's: <paramref name="sends"/> that <paramref name="why"/> may have cut, clamped to the
    /// <paramref name="inFlight"/> notifications in flight when it came (committed, not yet settled: no send can be cut
    /// that was not under way).
    /// </summary>
    public ChaosBudget Plus(int sends, int inFlight, string why)
    {
        int cut = Math.Clamp(sends, 0, Math.Max(0, inFlight));
        string basis = cut < sends ? string.Create(CultureInfo.InvariantCulture, $"{why}, {cut} in flight") : why;
        return Sends == 0 && Basis == None.Basis ? new(cut, basis) : new(Sends + cut, $"{Basis} + {basis}");
    }

    public override string ToString() => $"{Sends.ToString(CultureInfo.InvariantCulture)} ({Basis})";
}
