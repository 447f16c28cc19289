using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// A private, real Postfix (Debian's postfix; scripts/setup installs it) on 127.0.0.1 and a free port, with its own
/// configuration, queue and log in a temporary directory (<c>postfix -c DIR start</c>; <see cref="PostfixConfig"/> writes it).
/// It accepts mail for <see cref="Domain"/> and decides after accepting it, as a receiving server does: <see cref="Delivered"/>
/// is delivered (discarded), <see cref="UnknownUser"/> bounces (a 5.1.1 DSN from local delivery),
/// <see cref="Unreachable"/> is deferred (a 4.4.1 delay DSN within seconds, then an expiry bounce). Every DSN goes by SMTP to
/// the host and port given for the bounce domain. Needs root: the master runs as root, its daemons as the user postfix.
/// </summary>
internal sealed class PostfixServer : IAsyncDisposable
{
    /// <summary>The domain this Postfix takes mail for (mydestination).</summary>
    public const string Domain = "postfix.example.test";

    private const string Executable = "/usr/sbin/postfix";
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);

    private readonly string root;
    private bool stopped;

    private PostfixServer(string root, int port)
    {
        this.root = root;
        Port = port;
    }

    /// <summary>Delivered after acceptance: discarded with a 2.0.0, no DSN.</summary>
    public static string Delivered => $"{PostfixConfig.DeliveredLocalPart}@{Domain}";

    /// <summary>Deferred after acceptance (its next hop refuses connections): a delay DSN, then a bounce when it expires.</summary>
    public static string Unreachable => $"{PostfixConfig.UnreachableLocalPart}@{Domain}";

    public string Host => "127.0.0.1";

    public int Port { get; }

    private string ConfigDirectory => Path.Combine(root, "conf");

    private string LogFile => Path.Combine(root, "maillog");

    /// <summary>An address accepted at RCPT TO and bounced by local delivery (no such user: a 5.1.1 DSN).</summary>
    public static string UnknownUser(string name) => $"gone-{name}@{Domain}";

    /// <summary>
    /// Starts Postfix, which relays every DSN (and any mail) for <paramref name="bounceDomain"/> to
    /// <paramref name="bounceHost"/>:<paramref name="bouncePort"/>, and waits until its SMTP port answers.
    /// </summary>
    public static async Task<PostfixServer> StartAsync(string bounceDomain, string bounceHost, int bouncePort, CancellationToken ct = default)
    {
        if (!File.Exists(Executable))
        {
            throw new InvalidOperationException($"{Executable} not found: scripts/setup installs it (apt-get install postfix).");
        }

        if (!Environment.IsPrivilegedProcess)
        {
            throw new InvalidOperationException("A private Postfix needs root: its master runs as root and its daemons as the user postfix.");
        }

        // The free port is found by binding port 0 and letting go: another process may take it in between, hence the retry.
        for (int attempt = 1; ; attempt++)
        {
            string root = Path.Combine(Path.GetTempPath(), "postfix-" + Guid.NewGuid().ToString("N"));
            var server = new PostfixServer(root, LoopbackPort.Free());
            PostfixConfig.Write(root, server.Port, Domain, $"{bounceDomain} smtp:[{bounceHost}]:{bouncePort}");
            try
            {
                await server.RunAsync("start", ct);
                await server.WaitUntilListeningAsync(ct);
                return server;
            }
            catch (InvalidOperationException) when (attempt < 3)
            {
                await server.DisposeAsync();
            }
            catch
            {
                await server.DisposeAsync();
                throw;
            }
        }
    }

    /// <summary>Postfix's own log (its maillog_file): what it accepted, delivered, deferred and bounced, and why.</summary>
    public string Log() => File.Exists(LogFile) ? File.ReadAllText(LogFile) : "(no log)";

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (!stopped && File.Exists(Path.Combine(root, "queue", "pid", "master.pid")))
            {
                stopped = true;
                await RunAsync("stop", CancellationToken.None);
            }
        }
        finally
        {
            if (Directory.Exists(root))
            {
                Directory.Delete(root, recursive: true);
            }
        }
    }

    private async Task RunAsync(string command, CancellationToken ct)
    {
        var start = new ProcessStartInfo(Executable)
        {
            UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true,
        };
        foreach (string argument in (string[])["-c", ConfigDirectory, command])
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start) ?? throw new InvalidOperationException($"Could not start {Executable}.");
        var output = process.StandardOutput.ReadToEndAsync(ct);
        var error = process.StandardError.ReadToEndAsync(ct);
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(StartTimeout);
        await process.WaitForExitAsync(timeout.Token);
        if (process.ExitCode != 0)
        {
            // The postfix command writes its reasons to the log file, not to a pipe.
            throw new InvalidOperationException(
                $"postfix {command} exited with {process.ExitCode}: {await output}{await error}\n{Log()}");
        }
    }

    private async Task WaitUntilListeningAsync(CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            using var probe = new TcpClient();
            try
            {
                await probe.ConnectAsync(IPAddress.Loopback, Port, ct);
                return;
            }
            catch (SocketException) when (clock.Elapsed < StartTimeout)
            {
                await Task.Delay(50, ct);
            }
            catch (SocketException e)
            {
                throw new InvalidOperationException($"Postfix does not listen on {Port} after {StartTimeout}: {e.Message}\n{Log()}", e);
            }
        }
    }
}
