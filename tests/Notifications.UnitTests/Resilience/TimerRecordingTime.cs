using System.Threading.Channels;
using Microsoft.Extensions.Time.Testing;

namespace Notifications.UnitTests.Resilience;

/// <summary>
/// A <see cref="FakeTimeProvider"/> that reports each timer created on it (a retry's pause is one), so a test waits for
/// the pause to begin, reads how long it is, and moves the clock by exactly that much to end it.
/// </summary>
internal sealed class TimerRecordingTime : FakeTimeProvider
{
    private readonly Channel<TimeSpan> _timers = Channel.CreateUnbounded<TimeSpan>();

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = base.CreateTimer(callback, state, dueTime, period);
        _timers.Writer.TryWrite(dueTime);
        return timer;
    }

    /// <summary>The due time of the next timer created (waiting up to 10 s for it), without moving the clock.</summary>
    public async Task<TimeSpan> NextTimerAsync()
    {
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        return await _timers.Reader.ReadAsync(timeout.Token);
    }

    /// <summary>Waits for the next timer and moves the clock by its due time, so it fires; returns that due time.</summary>
    public async Task<TimeSpan> FireNextAsync()
    {
        var due = await NextTimerAsync();
        Advance(due);
        return due;
    }

    /// <summary>Fires the next <paramref name="count"/> timers one after the other; returns their due times.</summary>
    public async Task<List<TimeSpan>> FireAsync(int count)
    {
        var dues = new List<TimeSpan>(count);
        for (int i = 0; i < count; i++)
        {
            dues.Add(await FireNextAsync());
        }

        return dues;
    }

    /// <summary>True when no timer was created since the last one read.</summary>
    public bool NoNewTimer => !_timers.Reader.TryPeek(out _);
}
