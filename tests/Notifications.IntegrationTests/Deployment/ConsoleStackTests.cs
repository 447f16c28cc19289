namespace Notifications.IntegrationTests.Deployment;

/// <summary>
/// The operators' console in both stacks (docs/console.md): the admin's broker user and database login (it runs the admin tool's
/// operations), HTTPS with its certificate from secrets, the bootstrap password from a secret readable by its user alone, one
/// replica (its sessions' keys live in the process), no port published.
/// </summary>
public sealed class ConsoleStackTests
{
    [Theory]
    [InlineData("docker-stack.yml")]
    [InlineData("docker-stack.postgres.yml")]
    public async Task StackConfig_Console_AdminCredentialsTlsAndBootstrapSecretNoPortPublished(string file)
    {
        string yaml = await StackYaml.RenderAsync(file);
        var console = StackYaml.Block(yaml, "services", "console");

        Assert.Contains("      - source: admin_RabbitMq__Uri", console);
        Assert.Contains("        target: RabbitMq__Uri", console);
        Assert.Contains("      - source: database_admin", console);
        Assert.Contains("        target: Database__ConnectionString", console);
        Assert.Contains("      Console__Address: 0.0.0.0", console);
        Assert.Contains("      Console__Certificate: /run/secrets/tls_console.crt", console);
        Assert.Contains("      Console__CertificateKey: /run/secrets/tls_console.key", console);
        foreach (string secret in (string[])["tls_console_key", "console_operator_password"])
        {
            int at = console.ToList().IndexOf($"      - source: {secret}");
            Assert.True(at >= 0, $"{file}: the console mounts no {secret}");
            Assert.Contains("        mode: 256", console.Skip(at).TakeWhile((l, i) => i == 0 || !l.StartsWith("      - ", StringComparison.Ordinal)));  // 0400
        }

        Assert.Contains("        target: Console__Bootstrap__Password", console);

        Assert.Contains("      replicas: 1", StackYaml.Block(yaml, "services", "console", "deploy"));
        Assert.DoesNotContain(console, l => l.StartsWith("    ports:", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("docker-stack.yml")]
    [InlineData("docker-stack.postgres.yml")]
    public async Task StackConfig_ConsoleWorkers_ListEveryWorkerServiceAtItsOperationsPort(string file)
    {
        string yaml = await StackYaml.RenderAsync(file);
        // A worker service: one whose healthcheck asks its operations endpoint (${Metrics__Port:-<its port>}); the console
        // reads the others', not its own.
        var workers = StackYaml.Keys(yaml, "services")
            .Select(service => (Service: service, Port: OperationsPort(StackYaml.Block(yaml, "services", service, "healthcheck"))))
            .Where(w => w.Port is not null && w.Service != "console")
            .ToList();
        var environment = StackYaml.Block(yaml, "services", "console", "environment");
        var listed = new Dictionary<string, string>();
        for (int i = 0; environment.FirstOrDefault(l => l.StartsWith($"      Console__Workers__{i}__Name: ", StringComparison.Ordinal)) is { } name; i++)
        {
            string url = Assert.Single(environment, l => l.StartsWith($"      Console__Workers__{i}__Url: ", StringComparison.Ordinal));
            listed[name[(name.IndexOf(": ", StringComparison.Ordinal) + 2)..]] = url[(url.IndexOf(": ", StringComparison.Ordinal) + 2)..];
        }

        Assert.Equal(5, workers.Count);
        Assert.All(workers, w => Assert.True(
            listed.TryGetValue(w.Service, out string? url) && url == $"http://{w.Service}:{w.Port}/",
            $"{file}: Console__Workers lists no {w.Service} at http://{w.Service}:{w.Port}/ (listed: {string.Join(", ", listed)})"));
    }

    private static string? OperationsPort(IReadOnlyList<string> healthcheck) =>
        healthcheck.Select(l => System.Text.RegularExpressions.Regex.Match(l, @"\$\{Metrics__Port:-(\d+)\}")).FirstOrDefault(m => m.Success)?.Groups[1].Value;
}
