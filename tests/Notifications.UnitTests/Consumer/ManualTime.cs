namespace Notifications.UnitTests.Consumer;

/// <summary>A clock the test moves by hand; timers stay the system's.</summary>
internal sealed class ManualTime(DateTimeOffset start) : TimeProvider
{
    private DateTimeOffset _now = start;

    public override DateTimeOffset GetUtcNow() => _now;

    public void Advance(TimeSpan by) => _now += by;
}
