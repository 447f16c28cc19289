namespace Notifications.Harness;

/// <summary>
/// CPU seconds of each kind of process over the measuring window, and the same as microseconds per
/// notification delivered in that window (counted by the sink, or by the delivery log for the simulated
/// sender). The broker (beam.smp) and the database (postgres) are shared: their figures include other work.
/// </summary>
internal sealed record CpuSplit(long Delivered, double ConsumerSeconds, double ProducerSeconds, double BrokerSeconds, double DatabaseSeconds, double SinkSeconds)
{
    public double ConsumerMicros => PerNotification(ConsumerSeconds);

    public double ProducerMicros => PerNotification(ProducerSeconds);

    public double BrokerMicros => PerNotification(BrokerSeconds);

    public double DatabaseMicros => PerNotification(DatabaseSeconds);

    public double SinkMicros => PerNotification(SinkSeconds);

    public double TotalMicros => ConsumerMicros + ProducerMicros + BrokerMicros + DatabaseMicros + SinkMicros;

    private double PerNotification(double seconds) => Delivered <= 0 ? 0 : seconds * 1e6 / Delivered;
}
