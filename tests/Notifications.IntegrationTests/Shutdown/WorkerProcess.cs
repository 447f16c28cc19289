using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Shutdown;

/// <summary>
/// A worker as its own OS process (<c>dotnet Notifications.X.dll</c>), configured by environment
/// variables like a container, so that a real SIGTERM goes to a real host.
/// </summary>
internal sealed class WorkerProcess : IAsyncDisposable
{
    private static readonly string[] Sections = ["RabbitMq__", "Database__", "Producer__", "Consumer__", "Relay__", "RateLimits__", "Smtp__", "Logging__", "Serilog__", "Metrics__"];
    private readonly Process _process;
    private readonly ConcurrentQueue<string> _lines = new();

    private WorkerProcess(Process process) => _process = process;

    /// <summary>Everything the worker printed so far (stdout and stderr).</summary>
    public string Output => string.Join(Environment.NewLine, _lines);

    /// <summary>Starts Producer or Consumer against the test broker's topology and the test database.</summary>
    public static WorkerProcess Start(string project, TestBroker broker, params (string Key, string Value)[] settings) =>
        StartDll(RepositoryLayout.WorkerDll(project), broker, settings);

    /// <summary>Starts a built worker dll (e.g. <see cref="RepositoryLayout.BaselineDll"/>) the same way.</summary>
    public static WorkerProcess StartDll(string dll, TestBroker broker, params (string Key, string Value)[] settings)
    {
        var info = new ProcessStartInfo("dotnet")
        {
            // The content root is the working directory: the worker's own appsettings.json is found there.
            WorkingDirectory = Path.GetDirectoryName(dll)!,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add(dll);
        // Nothing from the developer's shell (e.g. .run/services.env) may leak into the worker's configuration.
        foreach (string key in info.Environment.Keys.Where(k => Sections.Any(s => k.StartsWith(s, StringComparison.OrdinalIgnoreCase))).ToList())
        {
            info.Environment.Remove(key);
        }

        // Test hooks (Faults:KillAt) only where a test asks for them (ChaosRun's workers do).
        info.Environment.Remove(Shared.Hosting.FaultInjector.TestHooksVariable);

        var configuration = broker.Configuration()
            .Select(kv => (kv.Key, kv.Value ?? ""))
            .Concat(
            [
                ("Database:Provider", "Postgres"),
                ("Database:ConnectionString", TestRoles.ConnectionString(RoleOf(dll))),
                ("Database:Schema", TestDatabase.Schema),
                ("Logging:Format", "text"),
                ("Metrics:Port", "0"),
                ("Serilog:MinimumLevel:Override:Microsoft.Hosting.Lifetime", "Information"),
            ])
            .Concat(settings);
        foreach (var (key, value) in configuration)
        {
            info.Environment[key.Replace(":", "__", StringComparison.Ordinal)] = value;
        }

        var worker = new WorkerProcess(new Process { StartInfo = info });
        worker._process.OutputDataReceived += (_, e) => worker.Keep(e.Data);
        worker._process.ErrorDataReceived += (_, e) => worker.Keep(e.Data);
        worker._process.Start();
        worker._process.BeginOutputReadLine();
        worker._process.BeginErrorReadLine();
        return worker;
    }

    /// <summary>Each worker connects as its database role (docs/security.md): the producer's dll as the producer, any other as the consumer.</summary>
    private static DatabaseRole RoleOf(string dll) =>
        Path.GetFileName(dll).Contains("Producer", StringComparison.Ordinal) ? DatabaseRole.Producer : DatabaseRole.Consumer;

    /// <summary>
    /// <see cref="Eventually.WaitAsync"/> while the worker runs: fails at once if it exits, and with its
    /// output on a timeout.
    /// </summary>
    public async Task<T> WaitWhileRunningAsync<T>(Func<Task<T>> probe, Func<T, bool> done, TimeSpan timeout, string what)
    {
        T last;
        try
        {
            last = await Eventually.WaitAsync(probe, value => done(value) || _process.HasExited, timeout, what);
        }
        catch (TimeoutException ex)
        {
            throw new TimeoutException($"{ex.Message}{Environment.NewLine}Worker output:{Environment.NewLine}{Output}", ex);
        }

        return done(last)
            ? last
            : throw new InvalidOperationException($"{what}: the worker exited with code {_process.ExitCode} first.{Environment.NewLine}{Output}");
    }

    public bool HasExited => _process.HasExited;

    /// <summary>The worker's process id (for /proc readings).</summary>
    public int Id => _process.Id;

    /// <summary>CPU seconds the worker has used so far: utime + stime (fields 14 and 15 of /proc/&lt;pid&gt;/stat, in ticks of 1/100 s).</summary>
    public double CpuSeconds() => StatCpuSeconds($"/proc/{Id}/stat");

    /// <summary>
    /// <see cref="CpuSeconds"/> but the runtime's tiered compiler's (its thread <c>.NET Tiered Com</c>): the one-off compiling of
    /// code run for the first time, or often enough to be compiled again, which goes on for a minute or more after a start and
    /// says nothing about what the worker's work costs.
    /// </summary>
    public double WorkCpuSeconds() => CpuSeconds() - Directory.EnumerateDirectories($"/proc/{Id}/task")
        .Select(task => Path.Combine(task, "stat"))
        .Where(stat => File.Exists(stat) && File.ReadAllText(stat).Contains("(.NET Tiered Com)", StringComparison.Ordinal))
        .Sum(StatCpuSeconds);

    private static double StatCpuSeconds(string path)
    {
        string stat = File.ReadAllText(path);
        // The command name may hold spaces and parentheses: the fields are counted after the last ')'.
        string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        return (long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture)) / 100.0;
    }

    /// <summary>SIGKILL: a crash, no cleanup.</summary>
    public void Kill()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
        }
    }

    /// <summary>Sends SIGTERM, as <c>docker stop</c> and systemd do.</summary>
    public async Task TerminateAsync()
    {
        var info = new ProcessStartInfo("kill") { UseShellExecute = false };
        info.ArgumentList.Add("-TERM");
        info.ArgumentList.Add(_process.Id.ToString(CultureInfo.InvariantCulture));
        using var kill = Process.Start(info)!;
        await kill.WaitForExitAsync();
        if (kill.ExitCode != 0)
        {
            throw new InvalidOperationException($"kill -TERM {_process.Id} exited {kill.ExitCode}; the worker had exited already?{Environment.NewLine}{Output}");
        }
    }

    /// <summary>Waits for the process to end and returns its exit code; a timeout fails with the output.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cancel.Token);
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"The worker did not exit within {timeout} of SIGTERM. Output:{Environment.NewLine}{Output}");
        }

        // Also waits for the redirected output to be read to its end.
        _process.WaitForExit();
        return _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync();
        }

        _process.Dispose();
    }

    private void Keep(string? line)
    {
        if (line is not null)
        {
            _lines.Enqueue(line);
        }
    }
}
