using System.Globalization;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Deployment;

/// <summary>
/// scripts/swarm-verdict, the oracle of <c>scripts/swarm smoke</c> and <c>load</c>, on sinks planted here (one file per
/// message, as the stack's smtp-sink writes them): it must fail a run with a loss, or with a duplicate that no SIGKILLed
/// consumer can excuse.
/// </summary>
public sealed class SwarmVerdictTests : IDisposable
{
    private static readonly DateTime Kill = new(2026, 11, 27, 12, 0, 0, DateTimeKind.Utc);
    private readonly string _sink = Directory.CreateTempSubdirectory("swarm-sink-").FullName;
    private int _files;

    [Fact]
    public async Task Verdict_EveryIdOnce_PassesWithCounts()
    {
        PlantEach(101, 110, Kill.AddSeconds(-5));

        var (exit, output) = await VerdictAsync(101, 110);

        Assert.Equal(0, exit);
        Assert.StartsWith("inserted 10  delivered 10 messages  distinct 10  lost 0  duplicated 0", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Verdict_OneIdNeverReceived_FailsAsLost()
    {
        PlantEach(101, 109, Kill.AddSeconds(-5));

        var (exit, output) = await VerdictAsync(101, 110);

        Assert.Equal(1, exit);
        Assert.Contains("lost 1", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Verdict_DuplicateAndNoKill_Fails()
    {
        PlantEach(101, 110, Kill.AddSeconds(-5));
        Plant(105, Kill.AddSeconds(-4));

        var (exit, output) = await VerdictAsync(101, 110);

        Assert.Equal(1, exit);
        Assert.Contains("duplicated 1", output, StringComparison.Ordinal);
    }

    /// <summary>
    /// Extra copies planted as "id@seconds after the kill" on top of one copy of each id 5 s before it: a copy is excused only
    /// across the kill (one before, one after), one per id, no more ids than the budget.
    /// </summary>
    [Theory]
    [InlineData("105@-3", 80, 1, "duplicated 1  excused 0")]
    [InlineData("105@2 106@3", 2, 0, "duplicated 2  excused 2")]
    [InlineData("105@2 106@3", 1, 1, "duplicated 2  excused 1")]
    [InlineData("105@2 105@3", 80, 1, "duplicated 2  excused 1")]
    public async Task Verdict_CopiesAroundAKill_ExcusedOnlyAcrossItWithinTheBudget(string copies, int budget, int exit, string counts)
    {
        PlantEach(101, 110, Kill.AddSeconds(-5));
        foreach (string copy in copies.Split(' '))
        {
            Plant(long.Parse(copy.Split('@')[0], CultureInfo.InvariantCulture), Kill.AddSeconds(int.Parse(copy.Split('@')[1], CultureInfo.InvariantCulture)));
        }

        var (code, output) = await VerdictAsync(101, 110, "--kill-window", Epoch(Kill), Epoch(Kill.AddSeconds(1)),
            "--budget", budget.ToString(CultureInfo.InvariantCulture));

        Assert.Equal(exit, code);
        Assert.Contains(counts, output, StringComparison.Ordinal);
    }

    public void Dispose() => Directory.Delete(_sink, recursive: true);

    private static string Epoch(DateTime at) =>
        (at - DateTime.UnixEpoch).TotalSeconds.ToString("F3", CultureInfo.InvariantCulture);

    private void PlantEach(long from, long to, DateTime at)
    {
        for (long id = from; id <= to; id++)
        {
            Plant(id, at);
        }
    }

    // As smtp-sink -d "/dump/%Y%m%d%H/%M." writes a message: a file per message under the hour's folder, CRLF lines.
    private void Plant(long id, DateTime at)
    {
        string folder = Path.Combine(_sink, at.ToString("yyyyMMddHH", CultureInfo.InvariantCulture));
        Directory.CreateDirectory(folder);
        string file = Path.Combine(folder, $"{at:mm}.{++_files:x6}");
        File.WriteAllText(file, $"X-Client-Addr: 10.0.1.7\r\nFrom: n@example.com\r\nX-Notification-Id: {id}\r\nSubject: t\r\n\r\nbody\r\n");
        File.SetLastWriteTimeUtc(file, at);
    }

    private async Task<(int Exit, string Output)> VerdictAsync(long from, long to, params string[] extra)
    {
        var (exit, output, error) = await BashRun.RunAsync([RepositoryLayout.File("scripts", "swarm-verdict"), _sink,
            from.ToString(CultureInfo.InvariantCulture), to.ToString(CultureInfo.InvariantCulture), .. extra]);
        return (exit, output + error);
    }
}
