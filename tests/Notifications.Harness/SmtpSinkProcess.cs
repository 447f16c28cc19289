using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.Harness;

/// <summary>
/// postfix smtp-sink on 127.0.0.1:port, WITHOUT -d: no dump file per message (which would make the sink,
/// not the pipeline, the thing measured). It counts at the server instead: with -c it prints
/// "sess=N quit=N mesg=N" each time a "." is received, and <see cref="Messages"/> is the last mesg. With arrivals recorded
/// (the fan-out benchmark) each new message's time is kept as the line is read: when, not which (the sink names no message).
/// </summary>
internal sealed class SmtpSinkProcess : IDisposable
{
    private readonly Process _process;
    private readonly List<long>? _arrivals;
    private long _messages;

    private SmtpSinkProcess(Process process, int port, bool recordArrivals)
    {
        _process = process;
        Port = port;
        _arrivals = recordArrivals ? [] : null;
    }

    public int Port { get; }

    public int Id => _process.Id;

    /// <summary>Messages the server received ("." of a mail transaction), counted by the server.</summary>
    public long Messages => Interlocked.Read(ref _messages);

    /// <summary>Each message's arrival (Unix microseconds, as the counter line was read), when recorded; else empty.</summary>
    public long[] Arrivals()
    {
        if (_arrivals is null)
        {
            return [];
        }

        lock (_arrivals)
        {
            return [.. _arrivals];
        }
    }

    public static async Task<SmtpSinkProcess> StartAsync(string executable, int port, bool recordArrivals = false)
    {
        // smtp-sink binds with SO_REUSEPORT: a leftover sink of an aborted run would silently share the port, take
        // part of the connections and make the count wrong. Refuse instead.
        if (await AnswersAsync(port))
        {
            throw new InvalidOperationException(
                $"something already listens on 127.0.0.1:{port} (a leftover smtp-sink of an aborted run?): stop it, or use --smtp-port");
        }

        var info = new ProcessStartInfo(executable) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        string[] arguments = Environment.IsPrivilegedProcess ? ["-u", "nobody"] : [];
        foreach (string argument in (string[])[.. arguments, "-c", "-m", "4096", $"127.0.0.1:{port}", "4096"])
        {
            info.ArgumentList.Add(argument);
        }

        var sink = new SmtpSinkProcess(Process.Start(info) ?? throw new InvalidOperationException("could not start smtp-sink"), port, recordArrivals);
        sink._process.OutputDataReceived += (_, e) => sink.OnCounter(e.Data);
        sink._process.ErrorDataReceived += (_, e) => sink.OnCounter(e.Data);
        sink._process.BeginOutputReadLine();
        sink._process.BeginErrorReadLine();
        for (int attempt = 0; ; attempt++)
        {
            try
            {
                using var probe = new TcpClient();
                await probe.ConnectAsync("127.0.0.1", port);
                return sink;
            }
            catch (SocketException) when (attempt < 100 && !sink._process.HasExited)
            {
                await Task.Delay(50);
            }
        }
    }

    private static async Task<bool> AnswersAsync(int port)
    {
        try
        {
            using var probe = new TcpClient();
            await probe.ConnectAsync("127.0.0.1", port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            _process.WaitForExit();
        }

        _process.Dispose();
    }

    // "sess=12 quit=3 mesg=4567" (ReadLine splits at the \r the sink ends each update with).
    private void OnCounter(string? line)
    {
        int at = line?.LastIndexOf("mesg=", StringComparison.Ordinal) ?? -1;
        if (at >= 0 && long.TryParse(line.AsSpan(at + 5).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out long messages))
        {
            long before = Interlocked.Exchange(ref _messages, messages);
            RecordArrivals(messages - before);
        }
    }

    private void RecordArrivals(long count)
    {
        if (_arrivals is null || count <= 0)
        {
            return;
        }

        long now = DeliveryArrivals.NowMicroseconds();
        lock (_arrivals)
        {
            _arrivals.AddRange(Enumerable.Repeat(now, (int)count));
        }
    }
}
