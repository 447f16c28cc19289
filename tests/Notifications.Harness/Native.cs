using System.Diagnostics;
using System.Globalization;

namespace Notifications.Harness;

/// <summary>POSIX signals for the worker processes: SIGTERM is what docker stop and systemd send.</summary>
internal static class Native
{
    public static void Terminate(int pid)
    {
        var info = new ProcessStartInfo("kill") { UseShellExecute = false };
        info.ArgumentList.Add("-TERM");
        info.ArgumentList.Add(pid.ToString(CultureInfo.InvariantCulture));
        using var kill = Process.Start(info) ?? throw new InvalidOperationException("could not run kill");
        kill.WaitForExit();
    }
}
