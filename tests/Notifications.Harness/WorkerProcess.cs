using System.Diagnostics;

namespace Notifications.Harness;

/// <summary>
/// A built worker (<c>dotnet Notifications.*.dll</c>) run as its own process, configured by environment
/// variables like a container; its output goes to a log file.
/// </summary>
internal sealed class WorkerProcess : IDisposable
{
    private readonly Process _process;
    private readonly StreamWriter _log;
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly string? _readyText;
    private bool _closed;

    private WorkerProcess(Process process, StreamWriter log, string name, string? readyText)
    {
        _process = process;
        _log = log;
        Name = name;
        _readyText = readyText;
    }

    public string Name { get; }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    /// <summary>
    /// Starts the worker (with <paramref name="arguments"/> after the dll, if any); a line of its output containing
    /// <paramref name="readyText"/> means ready (null: ready at once).
    /// </summary>
    public static WorkerProcess Start(
        string dll, string name, IReadOnlyDictionary<string, string> environment, string logPath, string? readyText, IReadOnlyList<string>? arguments = null)
    {
        var info = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        info.ArgumentList.Add(dll);
        foreach (string argument in arguments ?? [])
        {
            info.ArgumentList.Add(argument);
        }

        foreach (var (key, value) in environment)
        {
            info.Environment[key] = value;
        }

        var log = new StreamWriter(logPath) { AutoFlush = true };
        var worker = new WorkerProcess(Process.Start(info) ?? throw new InvalidOperationException($"could not start {dll}"), log, name, readyText);
        worker._process.OutputDataReceived += (_, e) => worker.OnLine(e.Data);
        worker._process.ErrorDataReceived += (_, e) => worker.OnLine(e.Data);
        worker._process.BeginOutputReadLine();
        worker._process.BeginErrorReadLine();
        if (readyText is null)
        {
            worker._ready.TrySetResult();
        }

        return worker;
    }

    public async Task WaitReadyAsync(TimeSpan timeout)
    {
        var exited = _process.WaitForExitAsync();
        if (await Task.WhenAny(_ready.Task, exited, Task.Delay(timeout)) != _ready.Task)
        {
            throw new InvalidOperationException($"{Name} was not ready after {timeout} (exited: {_process.HasExited}); see its log");
        }
    }

    public void Terminate()
    {
        if (!_process.HasExited)
        {
            Native.Terminate(_process.Id);
        }
    }

    /// <summary>Waits for the exit; kills the process if it takes longer than <paramref name="timeout"/>.</summary>
    public async Task<int> WaitForExitAsync(TimeSpan timeout)
    {
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(cts.Token);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync(CancellationToken.None);
        }

        return _process.ExitCode;
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
        }

        _process.Dispose();
        lock (_log)
        {
            _closed = true;
            _log.Dispose();
        }
    }

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_log)
        {
            if (!_closed)
            {
                _log.WriteLine(line);
            }
        }

        if (_readyText is not null && line.Contains(_readyText, StringComparison.Ordinal))
        {
            _ready.TrySetResult();
        }
    }
}
