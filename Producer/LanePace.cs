namespace Notifications.Producer;

/// <summary>
/// How long a lane pauses after a claim: not at all after a full batch; <see cref="ProducerOptions.PartialBatchDelay"/>
/// after a partial one, and after an empty one while a flow is likely to go on (rows were claimed less than
/// <see cref="ProducerOptions.FlowWindow"/> ago); past that window from the lane's first pause after an empty claim
/// (<see cref="ProducerLane.IdleDelay"/>), doubling while the outbox stays empty up to the lane's longest pause of the moment.
/// Without the window, the first empty claim amid a steady flow (at 200 rows a second one claim in four or five finds none)
/// made the next row wait a longer pause than a partial batch would have.
/// </summary>
internal sealed class LanePace(ProducerLane lane, ProducerOptions options, TimeProvider time)
{
    private TimeSpan _idle = lane.IdleDelay;
    private long? _rowsAt;

    /// <summary>The pause before the next claim, after one that took <paramref name="published"/> rows.</summary>
    public TimeSpan After(int published)
    {
        if (published > 0)
        {
            _idle = lane.IdleDelay;
            _rowsAt = time.GetTimestamp();
            return published >= lane.BatchSize ? TimeSpan.Zero : Min(options.PartialBatchDelay, lane.MaxIdleDelay);
        }

        if (_rowsAt is { } rowsAt && time.GetElapsedTime(rowsAt) < options.FlowWindow)
        {
            return Min(options.PartialBatchDelay, lane.MaxIdleDelay);
        }

        var pause = Min(_idle, lane.LongestPause);
        _idle = Min(_idle * 2, lane.LongestPause);
        return pause;
    }

    private static TimeSpan Min(TimeSpan a, TimeSpan b) => a < b ? a : b;
}
