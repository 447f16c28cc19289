using System.Globalization;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.Harness.FanOut;

/// <summary>
/// The processes of one fan-out run, started on emptied tables and queues: the receiver (push server or smtp-sink, recording
/// arrivals), the consumers, then the producers (<c>FanOut:PageSize</c> if given), warm before anything is inserted; and the
/// CPU meters of each kind of process, as the run mode splits them.
/// </summary>
internal sealed class FanOutPipeline : IAsyncDisposable
{
    // A producer is ready when it is connected to the broker; its loops (claim, fan-out stage) then get this to warm up.
    private const string ProducerReady = "Connected to RabbitMQ";
    private static readonly TimeSpan Warmup = TimeSpan.FromSeconds(2);

    private readonly DeliveryTarget _target;
    private readonly WorkerFleet _fleet;
    private readonly CpuMeter[] _meters;

    private FanOutPipeline(DeliveryTarget target, WorkerFleet fleet)
    {
        _target = target;
        _fleet = fleet;
        Consumer = new CpuMeter(() => fleet.ConsumerPids);
        Producer = new CpuMeter(() => fleet.ProducerPids);
        Broker = new CpuMeter(() => ProcStat.FindByName("beam.smp"));
        Database = new CpuMeter(() => ProcStat.FindByName("postgres"));
        Receiver = new CpuMeter(() => target.Pids);
        _meters = [Consumer, Producer, Broker, Database, Receiver];
    }

    public DeliveryTarget Target => _target;

    public CpuMeter Consumer { get; }

    public CpuMeter Producer { get; }

    public CpuMeter Broker { get; }

    public CpuMeter Database { get; }

    public CpuMeter Receiver { get; }

    public static async Task<FanOutPipeline> StartAsync(
        BenchEnvironment env, HarnessOptions options, BenchBroker broker, FanOutRegistry registry, string runDirectory, IReadOnlyDictionary<string, string>? producerExtra = null)
    {
        Directory.CreateDirectory(runDirectory);
        await registry.ResetPipelineAsync();
        await broker.DeleteQueuesAsync();
        var target = await DeliveryTarget.StartAsync(env, options, runDirectory, recordArrivals: true);
        var fleet = new WorkerFleet(env, options, runDirectory);
        try
        {
            int handlers = options.Handlers[0];
            int prefetch = options.PrefetchFor(options.Prefetch[0], options.Envelope[0]);
            Console.WriteLine($"  starting {options.Consumers} consumer(s) x {handlers} handlers (prefetch {prefetch}, {options.Channels} channel(s)), "
                + $"{options.Producers} producer(s){(options.FanOut.PageSize is { } p ? $" with pages of {p}" : "")}, {options.Channel} to {(target.Channel.IsEmail ? "smtp-sink" : "the push server")}");
            await fleet.StartConsumersAsync(handlers, prefetch, runFor: null, options.SmtpPort, channel: target.ConsumerVariables);
            var extra = new Dictionary<string, string>(producerExtra ?? new Dictionary<string, string>(), StringComparer.Ordinal)
            {
                ["Producer__EnvelopeSize"] = options.Envelope[0].ToString(CultureInfo.InvariantCulture),
            };
            if (options.FanOut.PageSize is { } pageSize)
            {
                extra["FanOut__PageSize"] = pageSize.ToString(CultureInfo.InvariantCulture);
            }

            fleet.StartProducers(options.Batch[0], extra, ProducerReady);
            await fleet.WaitProducersReadyAsync(TimeSpan.FromSeconds(60));
            await Task.Delay(Warmup);
            return new FanOutPipeline(target, fleet);
        }
        catch
        {
            fleet.Dispose();
            await target.DisposeAsync();
            throw;
        }
    }

    public void StartMeters() => Array.ForEach(_meters, m => m.Start());

    public void SampleMeters() => Array.ForEach(_meters, m => m.Sample());

    public void StopMeters() => Array.ForEach(_meters, m => m.Stop());

    /// <summary>The window's CPU of each kind of process, per device received.</summary>
    public CpuSplit Split(long received) =>
        new(received, Consumer.Seconds, Producer.Seconds, Broker.Seconds, Database.Seconds, Receiver.Seconds);

    /// <summary>Each worker's peak resident memory so far (VmHWM: the process's high-water mark), MiB, by name.</summary>
    public Dictionary<string, double> PeakRss() => _fleet.Producers.Concat(_fleet.Consumers)
        .Where(w => !w.HasExited)
        .ToDictionary(w => w.Name, w => ProcStat.PeakRssMib(w.Id) ?? 0, StringComparer.Ordinal);

    /// <summary>The receiver's refusals (push: a bad token or payload is the sender's defect); email none.</summary>
    public async Task<long> RefusedAsync() => (await _target.ReceiptsAsync())?.Refused ?? 0;

    public Task<ArrivalCounts> ArrivalCountsAsync() => _target.ArrivalCountsAsync();

    public async ValueTask DisposeAsync()
    {
        await _fleet.StopProducersAsync();
        await _fleet.StopConsumersAsync();
        _fleet.Dispose();
        await _target.DisposeAsync();
    }
}
