using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.Harness;

/// <summary>
/// The receiver (<see cref="ReceiverCommand"/>) as a process of its own, as smtp-sink is for email: its CPU is measured
/// apart from the workers' and the harness's, it has its own thread pool and GC (workstation, as the workers'), and what it
/// counted is read over HTTPS from <c>GET /_receiver/counts</c>, trusting exactly the certificate it wrote.
/// </summary>
internal sealed class ReceiverProcess : IAsyncDisposable
{
    private readonly WorkerProcess _process;
    private readonly HttpClient _client;
    private readonly int _port;

    private ReceiverProcess(WorkerProcess process, TestCertificate certificate, int port)
    {
        _process = process;
        Certificate = certificate;
        _port = port;
        _client = certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(30));
    }

    public int Id => _process.Id;

    /// <summary>The server's certificate, public half: what a client trusts (pinned), and what SSL_CERT_FILE names for the consumers.</summary>
    public TestCertificate Certificate { get; }

    /// <summary>The PEM file of <see cref="Certificate"/>.</summary>
    public required string CertificateFile { get; init; }

    /// <summary>Starts <c>receiver <paramref name="channel"/></c> on <paramref name="port"/> (push: and the next) with its files in <paramref name="directory"/>.</summary>
    public static async Task<ReceiverProcess> StartAsync(string channel, int port, IReadOnlyList<string> arguments, string directory)
    {
        Directory.CreateDirectory(directory);
        string certificateFile = Path.Combine(directory, ReceiverCommand.CertificateFile);
        File.Delete(certificateFile);
        string log = Path.Combine(directory, $"receiver-{channel}.log");
        var process = WorkerProcess.Start(BenchEnvironment.HarnessDll, $"receiver-{channel}", new Dictionary<string, string>(), log,
            ReceiverCommand.ReadyText, ["receiver", channel, "--receiver-port", port.ToString(CultureInfo.InvariantCulture), "--out", directory, .. arguments]);
        try
        {
            try
            {
                await process.WaitReadyAsync(TimeSpan.FromSeconds(60));
            }
            catch (InvalidOperationException ex)
            {
                // Kestrel refuses a port in use (no SO_REUSEPORT): the process exits and its log says why.
                throw new InvalidOperationException($"{ex.Message}: {log}", ex);
            }

            var certificate = TestCertificate.FromPem(await File.ReadAllTextAsync(certificateFile));
            return new ReceiverProcess(process, certificate, port) { CertificateFile = certificateFile };
        }
        catch
        {
            process.Dispose();
            throw;
        }
    }

    /// <summary>What the receiver counted so far.</summary>
    public async Task<ReceiptCounts> CountsAsync() =>
        await _client.GetFromJsonAsync<ReceiptCounts>(ReceiverUrls.Counts(_port))
        ?? throw new InvalidOperationException("the receiver answered no counts");

    /// <summary>A push server's deliveries (notification and device) accepted so far, when it records arrivals.</summary>
    public async Task<ArrivalCounts> ArrivalCountsAsync() =>
        await _client.GetFromJsonAsync<ArrivalCounts>(ReceiverUrls.ArrivalCounts(_port))
        ?? throw new InvalidOperationException("the receiver answered no arrival counts");

    /// <summary>Its deliveries' first arrivals per notification id (Unix microseconds, ascending).</summary>
    public async Task<Dictionary<string, long[]>> ArrivalsAsync() =>
        await _client.GetFromJsonAsync<Dictionary<string, long[]>>(ReceiverUrls.Arrivals(_port))
        ?? throw new InvalidOperationException("the receiver answered no arrivals");

    /// <summary>
    /// A sender's client: one SocketsHttpHandler shared by every concurrent sender, h2 (more connections opened when one's
    /// streams are all in use), trusting this receiver's certificate only.
    /// </summary>
    public HttpClient CreateSenderClient() => new(new SocketsHttpHandler
    {
        SslOptions = Certificate.ClientOptions(),
        EnableMultipleHttp2Connections = true,
        PooledConnectionLifetime = TimeSpan.FromMinutes(10),
    })
    {
        DefaultRequestVersion = HttpVersion.Version20,
        DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact,
        Timeout = TimeSpan.FromSeconds(30),
    };

    public async ValueTask DisposeAsync()
    {
        _process.Terminate();
        await _process.WaitForExitAsync(TimeSpan.FromSeconds(10));
        _process.Dispose();
        _client.Dispose();
        Certificate.Dispose();
    }
}
