namespace Notifications.Harness;

/// <summary>
/// CPU seconds used between <see cref="Start"/> and <see cref="Stop"/> by a group of processes. Sampled
/// every time <see cref="Sample"/> runs, so a process that exits before the end still counts up to its
/// last sample. Processes of the group that appear later (new database backends) count from zero.
/// </summary>
internal sealed class CpuMeter(Func<IEnumerable<int>> pids)
{
    private readonly Dictionary<int, double> _start = [];
    private readonly Dictionary<int, double> _last = [];
    private readonly Dictionary<int, double> _peakRss = [];
    private bool _running;

    public void Start()
    {
        _start.Clear();
        _last.Clear();
        foreach (int pid in pids())
        {
            if (ProcStat.CpuSeconds(pid) is { } cpu)
            {
                _start[pid] = cpu;
                _last[pid] = cpu;
            }
        }

        _running = true;
    }

    public void Sample()
    {
        foreach (int pid in pids())
        {
            if (ProcStat.PeakRssMib(pid) is { } rss)
            {
                _peakRss[pid] = rss;
            }

            if (_running && ProcStat.CpuSeconds(pid) is { } cpu)
            {
                _start.TryAdd(pid, 0);
                _last[pid] = cpu;
            }
        }
    }

    public void Stop()
    {
        Sample();
        _running = false;
    }

    /// <summary>CPU seconds used in the window, all processes together.</summary>
    public double Seconds => _last.Sum(p => p.Value - _start[p.Key]);

    /// <summary>The largest peak RSS seen of any one process, MiB.</summary>
    public double PeakRssMib => _peakRss.Count == 0 ? 0 : _peakRss.Values.Max();
}
