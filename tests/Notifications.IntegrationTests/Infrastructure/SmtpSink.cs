using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// A real postfix smtp-sink on 127.0.0.1 and a free port, dumping each mail transaction to its own file
/// (<c>man smtp-sink</c>). Path from NOTIFICATIONS_TEST_SMTP_SINK, default /usr/sbin/smtp-sink.
/// </summary>
internal sealed class SmtpSink : IAsyncDisposable
{
    private const string HeaderPrefix = "X-Notification-Id: ";
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(15);
    private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(50);

    private readonly string executable;
    private readonly ConcurrentQueue<string> output = new();

    // A completed dump file never changes again: its notification id (or none) is read once.
    private readonly Dictionary<string, long?> completed = new(StringComparer.Ordinal);
    private Process process;

    private SmtpSink(string executable, Process process, int port, string dumpDirectory)
    {
        this.executable = executable;
        this.process = process;
        Port = port;
        DumpDirectory = dumpDirectory;
    }

    public string Host => "127.0.0.1";

    public int Port { get; }

    public string DumpDirectory { get; }

    /// <summary>
    /// Starts smtp-sink with <paramref name="extraArgs"/> (split at spaces, e.g. "-r RCPT" or "-q .") and
    /// waits until its port accepts connections.
    /// </summary>
    public static async Task<SmtpSink> StartAsync(string extraArgs = "", CancellationToken ct = default)
    {
        if (OperatingSystem.IsWindows())
        {
            throw new PlatformNotSupportedException("smtp-sink (postfix) runs on Unix only.");
        }

        string path = Environment.GetEnvironmentVariable("NOTIFICATIONS_TEST_SMTP_SINK") is { Length: > 0 } configured
            ? configured
            : "/usr/sbin/smtp-sink";
        if (!File.Exists(path))
        {
            throw new InvalidOperationException(
                $"smtp-sink not found at '{path}': install postfix (scripts/setup) or set NOTIFICATIONS_TEST_SMTP_SINK.");
        }

        string dump = Path.Combine(Path.GetTempPath(), "smtp-sink-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(dump);

        // smtp-sink drops to "nobody" before it writes the dump.
        File.SetUnixFileMode(dump, (UnixFileMode)0b111_111_111);

        // The free port is found by binding port 0 and letting go: another process may take it in between,
        // so a sink that fails to bind is retried on a new port.
        for (int attempt = 1; ; attempt++)
        {
            int port = LoopbackPort.Free();
            var sink = new SmtpSink(path, Launch(path, extraArgs, port, dump), port, dump);
            try
            {
                await sink.WaitUntilListeningAsync(ct);
                return sink;
            }
            catch (InvalidOperationException) when (attempt < 3)
            {
                await sink.StopProcessAsync();
                sink.process.Dispose();
            }
            catch
            {
                await sink.DisposeAsync();
                throw;
            }
        }
    }

    /// <summary>
    /// Kills the sink (dropping every open connection) and starts it again on the same port and dump
    /// directory, with <paramref name="extraArgs"/>.
    /// </summary>
    public async Task RestartAsync(string extraArgs = "", CancellationToken ct = default)
    {
        await StopProcessAsync();
        process.Dispose();
        process = Launch(executable, extraArgs, Port, DumpDirectory);
        await WaitUntilListeningAsync(ct);
    }

    /// <summary>Kills the sink: its port refuses connections (a relay that is down) until <see cref="RestartAsync"/>.</summary>
    public Task StopAsync() => StopProcessAsync();

    /// <summary>Counts the completed mail transactions in the dump by their X-Notification-Id header.</summary>
    public IReadOnlyDictionary<long, int> CountByNotificationId()
    {
        var counts = new Dictionary<long, int>();
        foreach ((_, long id) in ScanDump())
        {
            counts[id] = counts.GetValueOrDefault(id) + 1;
        }

        return counts;
    }

    public int MessageCount() => ScanDump().Count;

    /// <summary>
    /// When each notification id first reached the sink: its dump file's last write (the sink closes it before it answers the
    /// final "."). File times come from the kernel's coarse clock, up to one scheduler tick (4 ms at 250 Hz) behind.
    /// </summary>
    public IReadOnlyDictionary<long, DateTime> ArrivedAt()
    {
        var first = new Dictionary<long, DateTime>();
        foreach ((string file, long id) in ScanDump())
        {
            var at = File.GetLastWriteTimeUtc(file);
            first[id] = first.TryGetValue(id, out var seen) && seen < at ? seen : at;
        }

        return first;
    }

    /// <summary>Mail transactions under way at the sink now: begun (MAIL), their final "." not yet answered.</summary>
    public int InProgressCount()
    {
        lock (completed)
        {
            return FilesOpenBySink().Count(f => f.StartsWith(DumpDirectory, StringComparison.Ordinal));
        }
    }

    /// <summary>The dump files of completed transactions that carry an X-Notification-Id header.</summary>
    public IReadOnlyList<string> MessageFiles() => ScanDump().Select(message => message.File).ToList();

    /// <summary>
    /// The dump files of all completed mail transactions, with or without an X-Notification-Id header (a DSN has none at
    /// its top), in the order smtp-sink named them.
    /// </summary>
    public IReadOnlyList<string> CompletedFiles() => [.. ScanCompleted().Select(message => message.File).Order(StringComparer.Ordinal)];

    public async Task WaitForMessagesAsync(int expected, TimeSpan timeout, CancellationToken ct = default)
    {
        var clock = Stopwatch.StartNew();
        int seen;
        while ((seen = MessageCount()) < expected)
        {
            if (clock.Elapsed > timeout)
            {
                throw new TimeoutException($"smtp-sink had {seen} of {expected} messages after {timeout}.");
            }

            await Task.Delay(PollInterval, ct);
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopProcessAsync();
        process.Dispose();
        if (Directory.Exists(DumpDirectory))
        {
            Directory.Delete(DumpDirectory, recursive: true);
        }
    }

    private static Process Launch(string path, string extraArgs, int port, string dump)
    {
        var start = new ProcessStartInfo(path)
        {
            UseShellExecute = false,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };

        // As root smtp-sink refuses to run without -u; as anyone else -u would fail.
        if (Environment.IsPrivilegedProcess)
        {
            start.ArgumentList.Add("-u");
            start.ArgumentList.Add("nobody");
        }

        foreach (string argument in (string[])["-m", "1000", "-d", $"{dump}/%Y%m%d%H/%M.",
            .. extraArgs.Split(' ', StringSplitOptions.RemoveEmptyEntries), $"127.0.0.1:{port}", "1024"])
        {
            start.ArgumentList.Add(argument);
        }

        return Process.Start(start) ?? throw new InvalidOperationException($"Could not start {path}.");
    }

    private async Task WaitUntilListeningAsync(CancellationToken ct)
    {
        process.OutputDataReceived += (_, e) => output.Enqueue(e.Data ?? "");
        process.ErrorDataReceived += (_, e) => output.Enqueue(e.Data ?? "");
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (process.HasExited)
            {
                throw new InvalidOperationException(
                    $"smtp-sink exited with code {process.ExitCode}: {string.Join(" | ", output)}");
            }

            using var probe = new TcpClient();
            try
            {
                await probe.ConnectAsync(IPAddress.Loopback, Port, ct);
                return;
            }
            catch (SocketException) when (clock.Elapsed < StartTimeout)
            {
                await Task.Delay(PollInterval, ct);
            }
        }
    }

    private async Task StopProcessAsync()
    {
        if (!process.HasExited)
        {
            process.Kill();
        }

        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        await process.WaitForExitAsync(timeout.Token);
    }

    private List<(string File, long Id)> ScanDump() =>
        [.. ScanCompleted().Where(message => message.Id is not null).Select(message => (message.File, message.Id!.Value))];

    /// <summary>
    /// smtp-sink creates the file at MAIL and writes it in 4 KiB pieces while the transaction runs, then
    /// closes it before it replies to "."; a closed file ends with the dump's empty line. Files are listed
    /// before the sink's open files are looked up, so a file seen closed was complete.
    /// </summary>
    private List<(string File, long? Id)> ScanCompleted()
    {
        lock (completed)
        {
            List<string> files = Directory.EnumerateFiles(DumpDirectory, "*", SearchOption.AllDirectories).ToList();
            HashSet<string> open = FilesOpenBySink();
            var messages = new List<(string File, long? Id)>();
            foreach (string file in files)
            {
                if (!completed.TryGetValue(file, out long? id))
                {
                    if (open.Contains(file) || !EndsWithEmptyLine(file))
                    {
                        continue;
                    }

                    completed[file] = id = TryReadNotificationId(file);
                }

                messages.Add((file, id));
            }

            return messages;
        }
    }

    private HashSet<string> FilesOpenBySink()
    {
        var open = new HashSet<string>(StringComparer.Ordinal);
        try
        {
            foreach (string fd in Directory.EnumerateFileSystemEntries($"/proc/{process.Id}/fd"))
            {
                if (new FileInfo(fd).LinkTarget is { } target)
                {
                    open.Add(target);
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            // No /proc, or the sink is gone: the trailing empty line alone decides.
        }

        return open;
    }

    private static bool EndsWithEmptyLine(string file)
    {
        try
        {
            using var stream = new FileStream(file, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            if (stream.Length < 2)
            {
                return false;
            }

            stream.Seek(-2, SeekOrigin.End);
            return stream.ReadByte() == '\n' && stream.ReadByte() == '\n';
        }
        catch (FileNotFoundException)
        {
            return false; // an aborted transaction's file, removed at RSET
        }
    }

    private static long? TryReadNotificationId(string file)
    {
        // Only the header section counts: the first empty line ends smtp-sink's and the message's headers.
        foreach (string line in File.ReadLines(file))
        {
            if (line.Length == 0)
            {
                return null;
            }

            if (line.StartsWith(HeaderPrefix, StringComparison.Ordinal)
                && long.TryParse(line.AsSpan(HeaderPrefix.Length), out long id))
            {
                return id;
            }
        }

        return null;
    }
}
