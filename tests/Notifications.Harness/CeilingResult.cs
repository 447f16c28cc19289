namespace Notifications.Harness;

/// <summary>One stage measured alone: how many messages a minute it can take on this machine.</summary>
internal sealed record CeilingResult(string Stage, string Description, long Messages, double Seconds)
{
    public double PerMinute => Seconds <= 0 ? 0 : Messages * 60.0 / Seconds;
}
