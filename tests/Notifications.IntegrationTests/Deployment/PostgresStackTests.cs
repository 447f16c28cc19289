namespace Notifications.IntegrationTests.Deployment;

/// <summary>
/// docker-stack.postgres.yml (the variant scripts/swarm deploys on this machine) as the docker CLI renders it:
/// its workers keep the production stack's healthchecks, stop signal and grace period, and every service of
/// both stacks resolves by DNS round robin (no virtual IP: no IPVS needed, no routing-mesh port).
/// </summary>
public sealed class PostgresStackTests
{

    [Fact]
    public async Task StackConfig_PostgresStack_RendersTheLocalServicesWithExternalSecrets()
    {
        string yaml = await StackYaml.RenderAsync("docker-stack.postgres.yml");

        Assert.Equal(["bounces", "console", "consumer", "gateway", "postgres", "producer", "rabbitmq-1", "rabbitmq-2", "rabbitmq-3", "smtp-sink", "unsubscribe"], StackYaml.Keys(yaml, "services").Order(StringComparer.Ordinal));
        // Every role's login is created at the first start (deploy/local/postgres-entrypoint.sh), the gateway's too.
        Assert.Contains("      - source: postgres_gateway_password", StackYaml.Block(yaml, "services", "postgres"));
        Assert.Contains("      - source: postgres_bounces_password", StackYaml.Block(yaml, "services", "postgres"));
        Assert.All(StackYaml.Keys(yaml, "secrets"), s => Assert.Contains("    external: true", StackYaml.Block(yaml, "secrets", s)));
        Assert.Contains("      POSTGRES_PASSWORD_FILE: /run/secrets/postgres_password", StackYaml.Block(yaml, "services", "postgres"));
    }

    [Theory]
    [InlineData("producer")]
    [InlineData("consumer")]
    [InlineData("gateway")]
    public async Task StackConfig_PostgresStackWorker_KeepsTheProductionHealthcheckAndShutdown(string service)
    {
        var production = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.yml"), "services", service);
        var local = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.postgres.yml"), "services", service);

        Assert.Equal(Section(production, "    healthcheck:"), Section(local, "    healthcheck:"));
        Assert.Equal(Line(production, "    stop_grace_period: "), Line(local, "    stop_grace_period: "));
        Assert.Equal(Line(production, "    stop_signal: "), Line(local, "    stop_signal: "));
        Assert.Contains($"      - source: database_{service}", local);
        Assert.Contains("        target: Database__ConnectionString", local);
        Assert.Contains($"      - source: {service}_RabbitMq__Uri", local);
        Assert.Contains("        target: RabbitMq__Uri", local);
    }

    /// <summary>
    /// The first start's set-up runs a server on the Unix socket only (deploy/local/postgres-entrypoint.sh): a check over
    /// the socket passed during it (9 s with a 12 s init script, docker run of notifications/postgres:local) while TCP,
    /// the only way in for the workers and the migrate task, still refused.
    /// </summary>
    [Fact]
    public async Task StackConfig_PostgresHealthcheck_AsksOverTcpNotTheSocketOfTheSetUp()
    {
        var check = Section(StackYaml.Block(await StackYaml.RenderAsync("docker-stack.postgres.yml"), "services", "postgres"), "    healthcheck:");

        int host = check.IndexOf("        - -h");
        Assert.Contains("        - pg_isready", check);
        Assert.True(host > 0, string.Join('\n', check));
        Assert.Equal("        - 127.0.0.1", check[host + 1]);
    }

    /// <summary>
    /// RabbitMQ 3.10 (the local image) holds its discovery lock while a node retries to join: a joining node that took it
    /// first kept the seed from starting the cluster for 4 minutes (docs/cluster.md). The joining nodes start on a first boot
    /// once another node serves (deploy/local/rabbitmq-entrypoint.sh); the seed starts at once.
    /// </summary>
    [Theory]
    [InlineData("rabbitmq-1", null)]
    [InlineData("rabbitmq-2", "rabbitmq-1:5671 rabbitmq-3:5671")]
    [InlineData("rabbitmq-3", "rabbitmq-1:5671 rabbitmq-2:5671")]
    public async Task StackConfig_JoiningBrokerNodes_StartOnAFirstBootOnceAnotherNodeServes(string node, string? after)
    {
        var block = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.postgres.yml"), "services", node);
        if (after is null)
        {
            Assert.DoesNotContain(block, line => line.Contains("RABBITMQ_FIRST_BOOT_AFTER", StringComparison.Ordinal));
        }
        else
        {
            Assert.Contains($"      RABBITMQ_FIRST_BOOT_AFTER: {after}", block);
        }
    }

    [Theory]
    [InlineData("docker-stack.yml")]
    [InlineData("docker-stack.postgres.yml")]
    public async Task StackConfig_EveryService_ResolvesByDnsRoundRobinWithoutRoutingMesh(string file)
    {
        string yaml = await StackYaml.RenderAsync(file);

        Assert.All(StackYaml.Keys(yaml, "services"), s => Assert.Contains("      endpoint_mode: dnsrr", StackYaml.Block(yaml, "services", s, "deploy")));
        Assert.DoesNotContain("mode: ingress", yaml, StringComparison.Ordinal);
    }

    private static List<string> Section(IReadOnlyList<string> block, string header) =>
        block.SkipWhile(l => l != header).Skip(1).TakeWhile(l => l.StartsWith("      ", StringComparison.Ordinal)).ToList();

    private static string Line(IReadOnlyList<string> block, string prefix) => Assert.Single(block, l => l.StartsWith(prefix, StringComparison.Ordinal));
}
