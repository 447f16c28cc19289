using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The fault matrix: each scenario × delivery mode with 10,000 notifications, judged by the oracle.
/// The test command runs a fast subset; <c>scripts/chaos</c> (NOTIFICATIONS_CHAOS=full) runs all. Scenarios
/// 20-22 run on the 3-node cluster of <c>scripts/cluster</c> with quorum queues.
/// Each verdict is appended to .run/chaos/results.tsv for the table scripts/chaos prints.
/// </summary>
[Collection("services")]
[Trait("Category", "Outage")]
public sealed class ChaosMatrixTests
{
    private static readonly int[] FastSubset = [2, 3, 7, 9, 13, 16, 23, 24];

    public static TheoryData<int, string> Matrix()
    {
        // NOTIFICATIONS_CHAOS: unset = the fast subset; "full" = all; "4,5" = those scenarios.
        string? choice = Environment.GetEnvironmentVariable("NOTIFICATIONS_CHAOS");
        int[] scenarios = choice switch
        {
            null or "" => FastSubset,
            "full" => [.. ChaosScenarios.All.Keys.Order()],
            _ => [.. choice.Split(',').Select(n => int.Parse(n, System.Globalization.CultureInfo.InvariantCulture))],
        };
        var data = new TheoryData<int, string>();
        foreach (int scenario in scenarios)
        {
            data.Add(scenario, "AtLeastOnce");
            data.Add(scenario, "AtMostOnce");
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Matrix))]
    public async Task Scenario_FaultMidRun_ModeKeepsItsPromise(int scenario, string mode)
    {
        var (name, inject) = ChaosScenarios.All[scenario];
        await using var run = await ChaosRun.StartAsync(mode, onCluster: ChaosScenarios.OnCluster.Contains(scenario));

        await inject(run);
        await run.DrainAsync();
        var verdict = await run.JudgeAsync(scenario, name);

        string results = RepositoryLayout.File(".run", "chaos", "results.tsv");
        Directory.CreateDirectory(Path.GetDirectoryName(results)!);
        await File.AppendAllTextAsync(results, verdict.ToTsv() + Environment.NewLine);
        Assert.True(verdict.Passed, verdict.ToString());
    }
}
