using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Testing;
using Notifications.Consumer;
using Notifications.Producer;
using Notifications.Gateway;
using Notifications.Unsubscribe;
using Notifications.Bounces;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>A producer, consumer, unsubscribe or bounces worker running in the test process against the real services, connected as its database role.</summary>
internal sealed class WorkerHost : IAsyncDisposable
{
    private readonly IHost _host;
    private bool _stopped;

    private WorkerHost(IHost host) => _host = host;

    public IServiceProvider Services => _host.Services;

    public static Task<WorkerHost> StartConsumerAsync(TestBroker broker, SmtpSink sink, params (string Key, string? Value)[] settings) =>
        StartConsumerAsync(broker, sink, _ => { }, settings);

    /// <summary>A consumer whose wiring the test changes after <c>AddConsumer</c> (a store that fails on purpose, a log recorder).</summary>
    public static Task<WorkerHost> StartConsumerAsync(
        TestBroker broker, SmtpSink sink, Action<IHostApplicationBuilder> change, params (string Key, string? Value)[] settings) =>
        StartAsync(b => change(b.AddConsumer()), DatabaseRole.Consumer, broker.Configuration(), [("Smtp:Host", sink.Host),
            ("Smtp:Port", sink.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)), ("Smtp:Security", "None"), ("Consumer:Handlers", "16"), .. settings]);

    public static Task<WorkerHost> StartProducerAsync(TestBroker broker, params (string Key, string? Value)[] settings) =>
        StartAsync(b => b.AddProducer(), DatabaseRole.Producer, broker.Configuration(), settings);

    /// <summary>The unsubscribe process (no broker), its public server on a free port of loopback.</summary>
    public static Task<WorkerHost> StartUnsubscribeAsync(params (string Key, string? Value)[] settings) =>
        StartAsync(b => b.AddUnsubscribeServer(), DatabaseRole.Unsubscribe, [], [("Unsubscribe:Port", "0"), .. settings]);

    public static Task<WorkerHost> StartGatewayAsync(TestBroker broker, params (string Key, string? Value)[] settings) =>
        StartAsync(b => b.AddGateway(), DatabaseRole.Gateway, broker.Configuration(), [("Gateway:Port", "0"), ("Gateway:GrpcPort", "0"), .. settings]);

    /// <summary>The bounce receiver (no broker), its SMTP listener on a free port of loopback.</summary>
    public static Task<WorkerHost> StartBouncesAsync(params (string Key, string? Value)[] settings) =>
        StartAsync(b => b.AddBounceReceiver(), DatabaseRole.Bounces, [], [("Bounces:Port", "0"), .. settings]);

    public T Get<T>()
        where T : notnull => _host.Services.GetRequiredService<T>();

    /// <summary>Waits until the worker has logged an event <paramref name="eventId"/> (Information and above); <paramref name="timeout"/> only guards.</summary>
    public Task WaitForLogAsync(int eventId, TimeSpan timeout) =>
        Eventually.WaitAsync(() => Task.FromResult(_host.Services.GetFakeLogCollector().GetSnapshot().Count(r => r.Id.Id == eventId)),
            n => n > 0, timeout, $"event {eventId} logged");

    public async Task StopAsync()
    {
        if (!_stopped)
        {
            _stopped = true;
            await _host.StopAsync();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _host.Dispose();
    }

    private static async Task<WorkerHost> StartAsync(
        Action<IHostApplicationBuilder> add, DatabaseRole role, Dictionary<string, string?> config, (string Key, string? Value)[] settings)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        config["Database:ConnectionString"] = TestRoles.ConnectionString(role);   // each worker as its database role
        config["Database:Schema"] = TestDatabase.Schema;
        config["Metrics:Port"] = "0";   // any free port: several workers run in one test process
        foreach (var (key, value) in settings)
        {
            config[key] = value;
        }

        builder.Configuration.AddInMemoryCollection(config);
        builder.Logging.AddSimpleConsole(o => o.SingleLine = true).SetMinimumLevel(LogLevel.Warning);
        // What the worker did, for tests that wait for it (WaitForLogAsync): its events from Information up, kept in memory.
        builder.Logging.AddFakeLogging().AddFilter<FakeLoggerProvider>(null, LogLevel.Information);
        add(builder);
        var host = builder.Build();
        await host.StartAsync();
        return new WorkerHost(host);
    }
}
