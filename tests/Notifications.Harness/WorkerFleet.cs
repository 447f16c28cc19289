using System.Data.Common;
using System.Globalization;
using System.Text.Json;
using Notifications.Harness.Live;

namespace Notifications.Harness;

/// <summary>
/// K consumer and P producer processes of one run (and the live mode's G gateways), their configuration and their reports. With
/// <paramref name="baseline"/> the consumers are the original experiment's (tests/Notifications.Baseline) and
/// the producers publish one notification per message, as the original did.
/// </summary>
internal sealed class WorkerFleet(BenchEnvironment env, HarnessOptions options, string runDirectory, bool baseline = false) : IDisposable
{
    /// <summary>What the baseline's producers get after every other setting (--env included): one notification per AMQP message.</summary>
    private static readonly Dictionary<string, string> BaselineProducer = new(StringComparer.Ordinal) { ["Producer__EnvelopeSize"] = "1" };

    private readonly List<WorkerProcess> _consumers = [];
    private readonly List<WorkerProcess> _producers = [];
    private readonly List<WorkerProcess> _gateways = [];

    public IEnumerable<int> Pids => _consumers.Concat(_producers).Where(w => !w.HasExited).Select(w => w.Id);

    public IEnumerable<int> ConsumerPids => _consumers.Where(w => !w.HasExited).Select(w => w.Id);

    public IEnumerable<int> ProducerPids => _producers.Where(w => !w.HasExited).Select(w => w.Id);

    public IEnumerable<int> GatewayPids => _gateways.Where(w => !w.HasExited).Select(w => w.Id);

    public IReadOnlyList<WorkerProcess> Consumers => _consumers;

    public IReadOnlyList<WorkerProcess> Producers => _producers;

    public IReadOnlyList<WorkerProcess> Gateways => _gateways;

    /// <summary>Starts the consumers (and the urgent lane's own, <c>--urgent-consumers</c>) and waits until each has its handlers running.</summary>
    /// <param name="handlers">Consumer:Handlers.</param>
    /// <param name="prefetch">Consumer:Prefetch.</param>
    /// <param name="runFor">Consumer:RunFor, the killswitch window, if any.</param>
    /// <param name="smtpPort">The harness's smtp-sink.</param>
    /// <param name="latencyWarmup">Consumer:LatencyWarmup: latencies this soon after the first delivery are left out of the percentiles.</param>
    /// <param name="channel">What a webhook or push run's consumers need to reach its receiver (before --env, which wins).</param>
    public async Task StartConsumersAsync(
        int handlers, int prefetch, TimeSpan? runFor, int smtpPort, TimeSpan? latencyWarmup = null, IReadOnlyDictionary<string, string>? channel = null)
    {
        for (int i = 0; i < options.ConsumerProcesses; i++)
        {
            var environment = Common("consumer");
            foreach (var (key, value) in channel ?? new Dictionary<string, string>())
            {
                environment[key] = value;
            }

            if (options.UrgentConsumers > 0)
            {
                // --urgent-consumers: the last ones consume the urgent lane alone, the others the standard lane alone.
                environment["Consumer__Lanes"] = i < options.Consumers ? "Standard" : "Urgent";
            }

            environment["Consumer__Handlers"] = Invariant(handlers);
            environment["Consumer__Prefetch"] = Invariant(prefetch);
            environment["Consumer__Channels"] = Invariant(options.Channels);
            environment["Consumer__DeliveryMode"] = options.DeliveryMode;
            environment["Consumer__Sender"] = options.Sender == "smtp" ? "Smtp" : "Simulated";
            environment["Consumer__StatsFile"] = Path.Combine(runDirectory, $"consumer-{i}.json");
            environment["Smtp__Host"] = "127.0.0.1";
            environment["Smtp__Port"] = Invariant(smtpPort);
            environment["Smtp__Security"] = "None";
            if (latencyWarmup is { } warmup)
            {
                environment["Consumer__LatencyWarmup"] = warmup.ToString("c", CultureInfo.InvariantCulture);
            }

            if (runFor is { } window)
            {
                environment["Consumer__RunFor"] = window.ToString("c", CultureInfo.InvariantCulture);
            }

            _consumers.Add(WorkerProcess.Start(baseline ? env.BaselineDll : env.ConsumerDll, $"consumer-{i}", Overrides(environment),
                Path.Combine(runDirectory, $"consumer-{i}.log"), "Consumer started"));
        }

        await Task.WhenAll(_consumers.Select(c => c.WaitReadyAsync(TimeSpan.FromSeconds(60))));
    }

    /// <summary>Starts the producers; with <paramref name="readyText"/>, a line of theirs with it means ready (<see cref="WaitProducersReadyAsync"/>).</summary>
    public void StartProducers(int batch, IReadOnlyDictionary<string, string>? extra = null, string? readyText = null)
    {
        for (int i = 0; i < options.Producers; i++)
        {
            var environment = Common("producer");
            environment["Producer__BatchSize"] = Invariant(batch);
            environment["Producer__StatsFile"] = Path.Combine(runDirectory, $"producer-{i}.json");
            foreach (var (key, value) in extra ?? new Dictionary<string, string>())
            {
                environment[key] = value;
            }

            _producers.Add(WorkerProcess.Start(env.ProducerDll, $"producer-{i}", Overrides(environment, baseline ? BaselineProducer : null),
                Path.Combine(runDirectory, $"producer-{i}.log"), readyText));
        }
    }

    /// <summary>
    /// Starts <paramref name="count"/> live gateways (<c>live</c>), gateway i on <paramref name="firstPort"/> + i, trusting tokens
    /// signed with <paramref name="tokenKey"/>, and waits until each listens.
    /// </summary>
    public async Task StartGatewaysAsync(int count, int firstPort, string tokenKey)
    {
        for (int i = 0; i < count; i++)
        {
            var environment = Common("gateway");
            // The gateway's own pool bound, as deployed (DatabaseOptions.ConsumerPoolSize), not the benchmark's 200: a burst of
            // acks would open that many connections per gateway, past the server's max_connections.
            var database = new DbConnectionStringBuilder { ConnectionString = environment["Database__ConnectionString"] };
            database.Remove("Maximum Pool Size");
            environment["Database__ConnectionString"] = database.ConnectionString;
            environment["Gateway__Address"] = "127.0.0.1";
            environment["Gateway__Port"] = Invariant(firstPort + i);
            // Each gateway's other ports its own too: the defaults (8091, 9467) would be taken by the first.
            environment["Gateway__GrpcPort"] = Invariant(LiveBenchOptions.GrpcPort(firstPort, i));
            environment["Metrics__Port"] = Invariant(LiveBenchOptions.OperationsPort(firstPort, i));
            environment["Gateway__TokenKey"] = tokenKey;
            _gateways.Add(WorkerProcess.Start(env.GatewayDll, $"gateway-{i}", Overrides(environment),
                Path.Combine(runDirectory, $"gateway-{i}.log"), "Gateway listening on"));
        }

        await Task.WhenAll(_gateways.Select(g => g.WaitReadyAsync(TimeSpan.FromSeconds(60))));
    }

    public Task StopGatewaysAsync() => StopAsync(_gateways, TimeSpan.FromSeconds(60));

    public Task WaitProducersReadyAsync(TimeSpan timeout) => Task.WhenAll(_producers.Select(p => p.WaitReadyAsync(timeout)));

    public Task StopProducersAsync() => StopAsync(_producers, TimeSpan.FromSeconds(60));

    public Task StopConsumersAsync() => StopAsync(_consumers, TimeSpan.FromSeconds(60));

    /// <summary>
    /// Waits for consumers that stop themselves (the killswitch). The urgent lane's own (<c>--urgent-consumers</c>), whose window
    /// opens only with an urgent delivery (none in a run without urgent rows), are stopped once the others have.
    /// </summary>
    public async Task WaitConsumersAsync(TimeSpan timeout)
    {
        await Task.WhenAll(_consumers.Take(options.Consumers).Select(c => c.WaitForExitAsync(timeout)));
        await StopAsync([.. _consumers.Skip(options.Consumers)], timeout);
    }

    public long Published() => _producers.Select((_, i) => Read($"producer-{i}.json")).Sum(r => r?.GetProperty("published").GetInt64() ?? 0);

    public List<JsonElement> ProducerReports() =>
        _producers.Select((_, i) => Read($"producer-{i}.json")).OfType<JsonElement>().ToList();

    public List<JsonElement> ConsumerReports() =>
        _consumers.Select((_, i) => Read($"consumer-{i}.json")).OfType<JsonElement>().ToList();

    public void Dispose()
    {
        foreach (var worker in _consumers.Concat(_producers).Concat(_gateways))
        {
            worker.Dispose();
        }
    }

    private static async Task StopAsync(List<WorkerProcess> workers, TimeSpan timeout)
    {
        workers.ForEach(w => w.Terminate());
        await Task.WhenAll(workers.Select(w => w.WaitForExitAsync(timeout)));
    }

    private Dictionary<string, string> Common(string role)
    {
        var environment = env.ServiceVariables(options.Queue, role);
        environment["Logging__Format"] = "text";
        // The workers run with the repository root as their content root, so their own appsettings.json is not read; its
        // log levels are given here as a deployment has them. Without them the push and webhook channels' HttpClient logs
        // four lines at Information per request (60 MB for 100,000 pushes): CPU the figures would charge to the consumer.
        environment["Serilog__MinimumLevel__Override__Microsoft"] = "Warning";
        environment["Serilog__MinimumLevel__Override__System"] = "Warning";
        return environment;
    }

    private Dictionary<string, string> Overrides(Dictionary<string, string> environment, IReadOnlyDictionary<string, string>? forced = null)
    {
        foreach (var (key, value) in options.WorkerEnvironment.Concat(forced ?? new Dictionary<string, string>()))
        {
            environment[key] = value;
        }

        return environment;
    }

    private JsonElement? Read(string file)
    {
        string path = Path.Combine(runDirectory, file);
        return File.Exists(path) ? JsonDocument.Parse(File.ReadAllText(path)).RootElement.Clone() : null;
    }

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
