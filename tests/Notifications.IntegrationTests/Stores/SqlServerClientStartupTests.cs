using System.Globalization;
using System.Net;
using System.Net.Sockets;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;

namespace Notifications.IntegrationTests.Stores;

/// <summary>
/// Regression: every app was built in globalization-invariant mode, in which SqlClient refuses to open any
/// connection ("Globalization Invariant Mode is not supported"), so the SQL Server provider could not work
/// anywhere. No SQL Server here: a closed port shows the built worker's client gets as far as the network.
/// </summary>
[Collection("services")]
public sealed class SqlServerClientStartupTests
{
    [Fact]
    public async Task Producer_SqlServerProvider_OpensConnectionsInsteadOfRefusingInvariantMode()
    {
        await using var broker = await TestBroker.CreateAsync();
        await using var producer = WorkerProcess.Start("Producer", broker,
            ("Database:Provider", "SqlServer"),
            ("Database:ConnectionString", $"Server=127.0.0.1,{ClosedPort()};User ID=sa;Password=unused;Connect Timeout=2;TrustServerCertificate=true"));

        string output = await producer.WaitWhileRunningAsync(
            () => Task.FromResult(producer.Output), o => o.Contains("Batch of the standard lane failed", StringComparison.Ordinal), TimeSpan.FromMinutes(1),
            "first claim failed");

        // An unreachable database is logged as one line with its reason (no stack trace): SqlClient's own words show it
        // tried to connect rather than refusing to run in invariant globalization mode.
        Assert.DoesNotContain("Globalization Invariant Mode", output, StringComparison.Ordinal);
        Assert.Contains("A network-related or instance-specific error occurred while establishing a connection to SQL Server", output, StringComparison.Ordinal);
    }

    private static string ClosedPort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port.ToString(CultureInfo.InvariantCulture);
    }
}
