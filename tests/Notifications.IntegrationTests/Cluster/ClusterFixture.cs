using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Cluster;

/// <summary>
/// Starts the 3-node cluster of <c>scripts/cluster</c> for a test class (about a minute on this machine) and
/// stops it afterwards — unless it was already running, then it is left as found. A cluster that cannot be
/// started fails the tests with the script's output; it is never a skip.
/// </summary>
public sealed class ClusterFixture : IAsyncLifetime
{
    private bool _startedHere;

    public async Task InitializeAsync()
    {
        string status = await TestCluster.RunAsync("status");
        _startedHere = status.Contains("not running", StringComparison.Ordinal);
        await TestCluster.UpAsync();
    }

    public async Task DisposeAsync()
    {
        if (_startedHere)
        {
            await TestCluster.RunAsync("down");
        }
    }
}
