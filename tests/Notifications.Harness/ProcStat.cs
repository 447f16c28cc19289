using System.Globalization;

namespace Notifications.Harness;

/// <summary>Reads /proc: CPU time (utime + stime) and peak RSS of processes, and finds processes by name.</summary>
internal static class ProcStat
{
    // USER_HZ is 100 on every Linux the project runs on (sysconf(_SC_CLK_TCK)).
    private const double TicksPerSecond = 100.0;

    /// <summary>CPU seconds the process has used so far, or null if it is gone.</summary>
    public static double? CpuSeconds(int pid)
    {
        string stat;
        try
        {
            stat = File.ReadAllText($"/proc/{pid}/stat");
        }
        catch (IOException)
        {
            return null;
        }
        catch (UnauthorizedAccessException)
        {
            return null;
        }

        // The command name may contain spaces and parentheses: fields are counted after the last ')'.
        string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
        long utime = long.Parse(fields[11], CultureInfo.InvariantCulture); // field 14 of the whole line
        long stime = long.Parse(fields[12], CultureInfo.InvariantCulture); // field 15
        return (utime + stime) / TicksPerSecond;
    }

    /// <summary>The high-water mark of resident memory (VmHWM), in MiB, or null if the process is gone.</summary>
    public static double? PeakRssMib(int pid) => StatusMib(pid, "VmHWM:");

    /// <summary>Resident memory now (VmRSS), in MiB, or null if the process is gone.</summary>
    public static double? RssMib(int pid) => StatusMib(pid, "VmRSS:");

    /// <summary>This process's open-files limit (RLIMIT_NOFILE, soft), which the processes it starts inherit.</summary>
    public static long OpenFilesLimit()
    {
        string line = File.ReadLines("/proc/self/limits").First(l => l.StartsWith("Max open files", StringComparison.Ordinal));
        return long.Parse(line["Max open files".Length..].Split(' ', StringSplitOptions.RemoveEmptyEntries)[0], CultureInfo.InvariantCulture);
    }

    // A kB line of /proc/pid/status in MiB.
    private static double? StatusMib(int pid, string field)
    {
        try
        {
            foreach (string line in File.ReadLines($"/proc/{pid}/status"))
            {
                if (line.StartsWith(field, StringComparison.Ordinal))
                {
                    return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture) / 1024.0;
                }
            }
        }
        catch (IOException)
        {
        }

        return null;
    }

    /// <summary>The 1-minute load average: how many runnable processes shared the cores (noise from other work).</summary>
    public static double LoadAverage() =>
        double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture);

    /// <summary>Pids whose command name (/proc/pid/comm) is one of <paramref name="names"/>.</summary>
    public static List<int> FindByName(params string[] names)
    {
        var pids = new List<int>();
        foreach (string dir in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out int pid))
            {
                continue;
            }

            try
            {
                if (names.Contains(File.ReadAllText($"{dir}/comm").Trim()))
                {
                    pids.Add(pid);
                }
            }
            catch (IOException)
            {
            }
        }

        return pids;
    }
}
