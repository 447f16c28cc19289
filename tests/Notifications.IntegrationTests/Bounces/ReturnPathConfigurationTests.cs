using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>A consumer given a bounce domain it cannot sign return paths for stops at start, naming the key, before it sends anything.</summary>
[Collection("services")]
public sealed class ReturnPathConfigurationTests
{
    [Fact]
    public async Task Consumer_BounceDomainWithoutKeys_ExitsWithCode2NamingTheMissingKey()
    {
        var (exitCode, output) = await WorkerCommandLineTests.RunAsync("Consumer",
            $"--Database:ConnectionString={TestServices.PostgresConnectionString}", "--Bounces:Domain=bounces.example.test");

        Assert.Equal(2, exitCode);
        Assert.Contains("error: invalid configuration:", output, StringComparison.Ordinal);
        Assert.Contains("Bounces:Keys:0:Id", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Consumer_ShortReturnPathSecret_ExitsWithCode2NamingTheKey()
    {
        var (exitCode, output) = await WorkerCommandLineTests.RunAsync("Consumer",
            $"--Database:ConnectionString={TestServices.PostgresConnectionString}", "--Bounces:Domain=bounces.example.test",
            "--Bounces:Keys:0:Id=k1", $"--Bounces:Keys:0:Secret={Convert.ToBase64String(new byte[16])}");

        Assert.Equal(2, exitCode);
        Assert.Contains("Bounces:Keys:0:Secret (key 'k1')", output, StringComparison.Ordinal);
    }
}
