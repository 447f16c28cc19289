using System.Runtime.InteropServices;
using System.Security.Cryptography;
using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.Shared.Contract;

namespace Notifications.Harness;

/// <summary>
/// <c>receiver webhook|push</c>: one of the HTTP channels' receiving servers (tests/Notifications.Receivers, the ones the
/// integration tests use: every signature and JWT verified) alone in this process, on <c>--receiver-port</c>, counting what
/// it accepts by id (<c>GET /_receiver/counts</c>) and keeping nothing else, until SIGTERM or Ctrl+C. The harness runs it
/// so for <c>run --channel webhook|push</c> and the receiver's ceiling; <c>scripts/bench receiver ...</c> runs it by hand.
/// Writes its certificate (PEM) to <c>--out</c>; a push receiver without <c>--keys</c> makes keys and writes them there too.
/// </summary>
internal sealed class ReceiverCommand(HarnessOptions options)
{
    public const string ReadyText = "Receiver ready";

    public const string CertificateFile = "receiver-certificate.pem";

    public async Task<int> RunAsync()
    {
        string directory = Path.GetFullPath(options.Output);
        Directory.CreateDirectory(directory);
        var stopped = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
        using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
        var mode = ReceiverMode.Benchmark(options.ReceiverPort, options.Arrivals);
        ReceiptCounts counts;
        try
        {
            counts = options.Channel == NotificationChannels.Webhook
                ? await RunWebhookAsync(directory, mode, stopped.Task)
                : await RunPushAsync(directory, mode, stopped.Task);
        }
        catch (IOException ex)
        {
            // Kestrel binds without SO_REUSEPORT: a port in use is refused, never shared with a leftover receiver.
            Console.Error.WriteLine($"error: {ex.Message} (a receiver of an aborted run still there? stop it, or use another --receiver-port)");
            return 2;
        }

        Console.WriteLine($"Receiver stopped; counts: {JsonSerializer.Serialize(counts)}");
        return 0;

        void Stop(PosixSignalContext context)
        {
            context.Cancel = true;
            stopped.TrySetResult();
        }
    }

    private async Task<ReceiptCounts> RunWebhookAsync(string directory, ReceiverMode mode, Task stopped)
    {
        string secret = options.Secret ?? "whsec_" + Convert.ToBase64String(RandomNumberGenerator.GetBytes(24));
        await using var receiver = await WebhookReceiver.StartAsync([secret], plainHttp: false, mode, CancellationToken.None);
        WriteCertificate(directory, receiver.Certificate);
        Console.WriteLine($"{ReadyText}: webhook receiver (Standard Webhooks, h2 and HTTP/1.1 over TLS) at {receiver.Url} and any path below it; "
            + $"counts at {ReceiverUrls.Counts(options.ReceiverPort)}; certificate {Path.Combine(directory, CertificateFile)}");
        if (options.Secret is null)
        {
            // Made here for a receiver run by hand: the endpoint must be registered with it (the harness passes its own).
            Console.WriteLine($"  secret: {secret}");
        }

        await stopped;
        return receiver.Receipts.Snapshot();
    }

    private async Task<ReceiptCounts> RunPushAsync(string directory, ReceiverMode mode, Task stopped)
    {
        using var keys = options.Keys is null ? new PushTestKeys() : null;
        if (keys is not null)
        {
            PushKeyFiles.Write(keys, directory, options.ReceiverPort);
        }

        string keyDirectory = Path.GetFullPath(options.Keys ?? directory);
        await using var server = await PushServer.StartAsync(PushKeyFiles.ReadTrust(keyDirectory), mode, CancellationToken.None);
        WriteCertificate(directory, server.Certificate);
        Console.WriteLine($"{ReadyText}: push server, FCM v1 at {server.FcmBaseUrl} (OAuth2 at {server.TokenUrl}), APNs (h2 only) at {server.ApnsBaseUrl}; "
            + $"counts at {ReceiverUrls.Counts(options.ReceiverPort)}; certificate {Path.Combine(directory, CertificateFile)}; keys in {keyDirectory}");
        if (keys is not null)
        {
            Console.WriteLine($"  a consumer reaches it with SSL_CERT_FILE={Path.Combine(directory, CertificateFile)} and:");
            foreach (var (key, value) in PushKeyFiles.ConsumerVariables(keys, directory, options.ReceiverPort))
            {
                Console.WriteLine($"    {key}={value}");
            }
        }

        await stopped;
        return server.Log.Receipts.Snapshot();
    }

    private static void WriteCertificate(string directory, TestCertificate certificate) =>
        File.WriteAllText(Path.Combine(directory, CertificateFile), certificate.ExportPem());
}
