namespace Notifications.Harness.Live;

/// <summary>The CPU meters of a live run, one per kind of process, started and stopped together around each phase.</summary>
internal sealed class LiveMeters
{
    private readonly CpuMeter _producer;
    private readonly CpuMeter _consumer;
    private readonly CpuMeter _gateway;
    private readonly CpuMeter _broker = new(() => ProcStat.FindByName("beam.smp"));
    private readonly CpuMeter _database = new(() => ProcStat.FindByName("postgres"));
    private readonly CpuMeter _clients;
    private readonly CpuMeter[] _all;

    /// <param name="fleet">The workers.</param>
    /// <param name="clients">The harness and its client processes.</param>
    public LiveMeters(WorkerFleet fleet, Func<IEnumerable<int>> clients)
    {
        _clients = new CpuMeter(clients);
        _producer = new CpuMeter(() => fleet.ProducerPids);
        _consumer = new CpuMeter(() => fleet.ConsumerPids);
        _gateway = new CpuMeter(() => fleet.GatewayPids);
        _all = [_producer, _consumer, _gateway, _broker, _database, _clients];
    }

    public void Start() => Array.ForEach(_all, m => m.Start());

    public void Sample() => Array.ForEach(_all, m => m.Sample());

    /// <summary>Stops the meters: the phase's CPU per notification received in it.</summary>
    public LiveCpu Stop(long received)
    {
        Array.ForEach(_all, m => m.Stop());
        return new LiveCpu(received, _producer.Seconds, _consumer.Seconds, _gateway.Seconds, _broker.Seconds, _database.Seconds, _clients.Seconds);
    }
}
