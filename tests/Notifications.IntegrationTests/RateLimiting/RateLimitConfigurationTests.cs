using Notifications.IntegrationTests.Shutdown;

namespace Notifications.IntegrationTests.RateLimiting;

/// <summary>The built consumer refuses a bad rate at start, naming the key, before it touches any service.</summary>
public sealed class RateLimitConfigurationTests
{
    [Fact]
    public async Task Start_BadRates_ExitsTwoNamingEachKey()
    {
        var (exitCode, output) = await WorkerCommandLineTests.RunAsync("Consumer",
            "--Database:ConnectionString=Host=127.0.0.1;Port=1", "--RateLimits:Relay=100 per second", "--RateLimits:Domains:gmail.com=50/x");

        Assert.Equal(2, exitCode);
        Assert.Contains("error: invalid configuration:", output, StringComparison.Ordinal);
        Assert.Contains("RateLimits:Relay: '100 per second' is not a rate; write e.g. 100/s, 3000/min or 20000/h", output, StringComparison.Ordinal);
        Assert.Contains("RateLimits:Domains:gmail.com: '50/x' is not a rate", output, StringComparison.Ordinal);
    }
}
