using System.Diagnostics;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// The 3-node RabbitMQ cluster of <c>scripts/cluster</c> (nodes on 127.0.0.1:5681-5683), driven through that
/// script: started when missing, nodes killed, restarted and partitioned by it.
/// </summary>
internal static class TestCluster
{
    public static Uri Uri { get; } = new("amqp://notifications:notifications@127.0.0.1:5681/");

    /// <summary>The value of <c>RabbitMq:Endpoints</c> for the cluster.</summary>
    public const string Endpoints = "127.0.0.1:5681,127.0.0.1:5682,127.0.0.1:5683";

    /// <summary>Starts the nodes that are not running and joins them (about a minute from nothing; seconds when up).</summary>
    public static Task<string> UpAsync() => RunAsync("up");

    /// <summary>The node number (1-3) hosting the leader of quorum queue <paramref name="queue"/> in vhost /.</summary>
    public static async Task<int> LeaderAsync(string queue) =>
        int.Parse((await RunAsync($"leader {queue}")).Trim(), System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>How often node <paramref name="node"/> has paused itself as the minority of a partition (its log's count).</summary>
    public static int MinorityPauses(int node)
    {
        string log = RepositoryLayout.File(".run", "cluster", $"q{node}", "log", $"notif-q{node}@localhost.log");
        return File.Exists(log)
            ? File.ReadLines(log).Count(line => line.Contains("Cluster minority/secondary status detected", StringComparison.Ordinal))
            : 0;
    }

    /// <summary>Runs <c>scripts/cluster</c> with <paramref name="arguments"/>; a non-zero exit throws with its output.</summary>
    public static async Task<string> RunAsync(string arguments)
    {
        var info = new ProcessStartInfo("bash") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryLayout.Root };
        info.ArgumentList.Add("-c");
        info.ArgumentList.Add($"scripts/cluster {arguments}");
        using var process = Process.Start(info)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        string stderr = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        return process.ExitCode == 0
            ? await stdout
            : throw new InvalidOperationException($"scripts/cluster {arguments} exited {process.ExitCode}: {await stdout}{stderr}");
    }
}
