using System.Diagnostics;
using System.Security.Cryptography;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// scripts/secret-scan (run at the end of scripts/demo and scripts/swarm-smoke) can fail: a secret planted in a log,
/// or on a running process's command line, is a hit (exit 1) reported by the secret's name, never its value.
/// </summary>
public sealed class SecretScanTests : IDisposable
{
    private readonly string _dir = Directory.CreateTempSubdirectory("secret-scan-").FullName;
    private readonly string _secret = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(24));

    public SecretScanTests()
    {
        Directory.CreateDirectory(Path.Combine(_dir, "secrets"));
        Directory.CreateDirectory(Path.Combine(_dir, "logs"));
        File.WriteAllText(Path.Combine(_dir, "secrets", "postgres_consumer"), _secret + "\n");
        File.WriteAllText(Path.Combine(_dir, "secrets", "Database__ConnectionString"), $"Host=db;Username=u;Password={_secret}x;Database=d");
        File.WriteAllText(Path.Combine(_dir, "logs", "worker.log"), "info: started\ninfo: connected as notifications_consumer_login\n");
    }

    [Fact]
    public async Task Scan_CleanLogs_ZeroHitsExit0()
    {
        var (exit, output, error) = await ScanAsync();

        Assert.True(exit == 0, error);
        Assert.Contains("secret scan: 0 hits over 1 files (2 secrets)", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Scan_SecretPlantedInLog_HitByNameExit1()
    {
        File.AppendAllText(Path.Combine(_dir, "logs", "nested.log"), $"fail: connection Host=db;Password={_secret}x failed\n");

        var (exit, output, error) = await ScanAsync();

        Assert.Equal(1, exit);
        Assert.Contains("nested.log: secret Database__ConnectionString", error, StringComparison.Ordinal);
        Assert.Contains("nested.log: secret postgres_consumer", error, StringComparison.Ordinal);
        Assert.DoesNotContain(_secret, output + error, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Scan_SecretOnACommandLine_HitInPsExit1()
    {
        using var planted = Process.Start(new ProcessStartInfo("bash") { ArgumentList = { "-c", "sleep 60; true", "password-on-cmdline", _secret } })!;
        try
        {
            var (exit, _, error) = await ScanAsync("--ps");

            Assert.Equal(1, exit);
            Assert.Contains("ps-args.txt: secret postgres_consumer", error, StringComparison.Ordinal);
        }
        finally
        {
            planted.Kill(entireProcessTree: true);
        }
    }

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    private Task<(int Exit, string Output, string Error)> ScanAsync(params string[] extra) =>
        BashRun.RunAsync([RepositoryLayout.File("scripts", "secret-scan"), "--secrets", Path.Combine(_dir, "secrets"), "--logs", Path.Combine(_dir, "logs"), .. extra]);
}
