using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.Shared.Contract;

namespace Notifications.Harness;

/// <summary>
/// Where a run's notifications land and are counted: smtp-sink for email with the SMTP sender; for webhook and push the
/// receiver process, with the endpoint registered (webhook) or the keys made (push) first and the consumers told how to reach
/// it; nothing for the simulated sender (the delivery log counts).
/// </summary>
internal sealed class DeliveryTarget : IAsyncDisposable
{
    private readonly SmtpSinkProcess? _sink;
    private readonly ReceiverProcess? _receiver;
    private ReceiverProcess? _events;

    private DeliveryTarget(BenchChannel channel, SmtpSinkProcess? sink, ReceiverProcess? receiver, Dictionary<string, string>? consumerVariables)
    {
        Channel = channel;
        _sink = sink;
        _receiver = receiver;
        ConsumerVariables = consumerVariables ?? new Dictionary<string, string>(StringComparer.Ordinal);
        if (receiver is not null)
        {
            // The consumers trust the receiver's self-signed certificate as a root (OpenSSL's SSL_CERT_FILE, read by .NET on Linux).
            ConsumerVariables["SSL_CERT_FILE"] = receiver.CertificateFile;
        }
    }

    public BenchChannel Channel { get; }

    /// <summary>Environment the consumers need to reach the receiver (before <c>--env</c>, which wins).</summary>
    public Dictionary<string, string> ConsumerVariables { get; }

    /// <summary>Whether a server counts what arrives (else the delivery log is the count).</summary>
    public bool Counts => _sink is not null || _receiver is not null;

    /// <summary>The sink's or receiver's process, for its CPU.</summary>
    public IEnumerable<int> Pids => (_sink is not null ? [_sink.Id] : _receiver is not null ? [_receiver.Id] : (int[])[])
        .Concat(_events is not null ? [_events.Id] : []);

    /// <summary>
    /// Starts the run's target; with <paramref name="recordArrivals"/> (fan-out) the push server keeps each delivery's first
    /// arrival and the sink each message's (<see cref="ArrivalsAsync"/>).
    /// </summary>
    public static async Task<DeliveryTarget> StartAsync(BenchEnvironment env, HarnessOptions options, string runDirectory, bool recordArrivals = false)
    {
        int port = options.ReceiverPort;
        switch (options.Channel)
        {
            case NotificationChannels.Webhook:
                // A new endpoint each run: the endpoint table outlives the outbox's reset.
                string name = "bench-" + Guid.NewGuid().ToString("N")[..12];
                string secret = await WebhookEndpointRegistration.RegisterAsync(env, options.Queue, name, ReceiverUrls.Webhook(port, name));
                var webhook = await ReceiverProcess.StartAsync(NotificationChannels.Webhook, port, ["--secret", secret], runDirectory);
                return new DeliveryTarget(new BenchChannel(NotificationChannels.Webhook, Endpoint: name), null, webhook, null);
            case NotificationChannels.Push:
                using (var keys = new PushTestKeys())
                {
                    PushKeyFiles.Write(keys, runDirectory, port);
                    var push = await ReceiverProcess.StartAsync(
                        NotificationChannels.Push, port, recordArrivals ? ["--keys", runDirectory, "--arrivals"] : ["--keys", runDirectory], runDirectory);
                    return new DeliveryTarget(new BenchChannel(NotificationChannels.Push, PushProviders: options.PushProviders), null, push,
                        PushKeyFiles.ConsumerVariables(keys, runDirectory, port));
                }

            default:
                var sink = options.Sender == "smtp" ? await SmtpSinkProcess.StartAsync(env.SmtpSink, options.SmtpPort, recordArrivals) : null;
                var email = new DeliveryTarget(BenchChannel.Email, sink, null, null);
                if (options.OutcomeEvents)
                {
                    email._events = await StartEventsReceiverAsync(env, options, runDirectory);
                    email.ConsumerVariables["SSL_CERT_FILE"] = email._events.CertificateFile;
                }

                return email;
        }
    }

    /// <summary>With <c>--outcome-events</c>: the distinct events the events receiver accepted so far; else null.</summary>
    public async Task<long?> EventsReceivedAsync() => _events is null ? null : (await _events.CountsAsync()).Distinct;

    // An endpoint of its own each run (the table outlives the outbox's reset), subscribed to the delivered events only.
    private static async Task<ReceiverProcess> StartEventsReceiverAsync(BenchEnvironment env, HarnessOptions options, string runDirectory)
    {
        string name = "bench-events-" + Guid.NewGuid().ToString("N")[..12];
        string secret = await WebhookEndpointRegistration.RegisterAsync(env, options.Queue, name, ReceiverUrls.Webhook(options.ReceiverPort, name));
        await WebhookEndpointRegistration.SubscribeAsync(env, options.Queue, name, "notification.delivered");
        return await ReceiverProcess.StartAsync(NotificationChannels.Webhook, options.ReceiverPort, ["--secret", secret], runDirectory);
    }

    /// <summary>Notifications received: the sink's messages, or the distinct ids the receiver accepted.</summary>
    public async Task<long> ReceivedAsync() => _sink?.Messages ?? (_receiver is null ? 0 : (await _receiver.CountsAsync()).Distinct);

    /// <summary>The receiver's full counts (duplicates, refusals), or null for email.</summary>
    public async Task<ReceiptCounts?> ReceiptsAsync() => _receiver is null ? null : await _receiver.CountsAsync();

    /// <summary>Distinct deliveries received so far (push: per notification and device; email: the sink's messages) and repeats.</summary>
    public async Task<ArrivalCounts> ArrivalCountsAsync() =>
        _receiver is not null ? await _receiver.ArrivalCountsAsync() : new ArrivalCounts(_sink?.Messages ?? 0, 0);

    /// <summary>
    /// Each delivery's first arrival (Unix microseconds, ascending) per notification id: the push server's; the sink names no
    /// message, so email's are all under the empty id (in the order the sink's counter lines were read).
    /// </summary>
    public async Task<Dictionary<string, long[]>> ArrivalsAsync() => _receiver is not null
        ? await _receiver.ArrivalsAsync()
        : new Dictionary<string, long[]>(StringComparer.Ordinal) { [""] = _sink?.Arrivals() ?? [] };

    public async ValueTask DisposeAsync()
    {
        _sink?.Dispose();
        if (_events is not null)
        {
            await _events.DisposeAsync();
        }

        if (_receiver is not null)
        {
            await _receiver.DisposeAsync();
        }
    }
}
