namespace Notifications.Harness.Live;

/// <summary>
/// CPU seconds of each kind of process over a phase of a live run, and per notification received by the clients in it (µs).
/// The broker (beam.smp) and the database (postgres) are shared: their figures include other work. The clients are the
/// harness itself (its clients, inserts and probe) and its client processes: shown, not in the pipeline's total.
/// </summary>
internal sealed record LiveCpu(long Received, double ProducerSeconds, double ConsumerSeconds, double GatewaySeconds, double BrokerSeconds, double DatabaseSeconds, double ClientsSeconds)
{
    public double ProducerMicros => PerNotification(ProducerSeconds);

    public double ConsumerMicros => PerNotification(ConsumerSeconds);

    public double GatewayMicros => PerNotification(GatewaySeconds);

    public double BrokerMicros => PerNotification(BrokerSeconds);

    public double DatabaseMicros => PerNotification(DatabaseSeconds);

    public double ClientsMicros => PerNotification(ClientsSeconds);

    /// <summary>The pipeline's: producer, consumer, gateway, broker and database, not the clients.</summary>
    public double TotalMicros => ProducerMicros + ConsumerMicros + GatewayMicros + BrokerMicros + DatabaseMicros;

    private double PerNotification(double seconds) => Received <= 0 ? 0 : seconds * 1e6 / Received;
}
