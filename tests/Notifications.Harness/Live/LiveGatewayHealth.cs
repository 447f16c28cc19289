namespace Notifications.Harness.Live;

/// <summary>
/// The gateways through a storm (<see cref="LiveGatewayWatch"/>): health polls, those answered and those ready, whether a
/// gateway process exited, and the longest a gateway went without answering (ms).
/// </summary>
internal sealed record LiveGatewayHealth(int Polls, int Answered, int Ready, bool Exited, double LongestSilenceMs)
{
    /// <summary>Up throughout: no gateway exited and every poll was answered.</summary>
    public bool Up => !Exited && Polls > 0 && Answered == Polls;
}
