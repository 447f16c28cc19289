using System.Globalization;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Notifications.Consumer;

namespace Notifications.IntegrationTests.Deployment;

/// <summary>docker-stack.yml as the docker CLI renders it (<c>docker stack config</c>, no engine needed).</summary>
public sealed class DockerStackTests
{
    private static readonly string[] Services = ["bounces", "console", "consumer", "gateway", "producer", "rabbitmq-1", "rabbitmq-2", "rabbitmq-3", "sqlserver", "unsubscribe"];
    private static readonly string[] Secrets =
    [
        "database_consumer", "database_producer", "database_unsubscribe", "unsubscribe_key", "consumer_RabbitMq__Uri", "producer_RabbitMq__Uri", "Smtp__Password", "mssql_sa_password",
        "database_gateway", "gateway_RabbitMq__Uri", "gateway_token_key", "tls_gateway_crt", "tls_gateway_key",
        "rabbitmq_conf", "rabbitmq_definitions", "rabbitmq_erlang_cookie", "tls_ca_crt",
        "tls_rabbitmq-1_crt", "tls_rabbitmq-1_key", "tls_rabbitmq-2_crt", "tls_rabbitmq-2_key", "tls_rabbitmq-3_crt", "tls_rabbitmq-3_key",
        "tls_sqlserver_crt", "tls_sqlserver_key",
        "admin_RabbitMq__Uri", "database_admin", "console_operator_password", "tls_console_crt", "tls_console_key",
        "database_bounces", "bounces_key", "tls_bounces_crt", "tls_bounces_key",
    ];

    [Fact]
    public async Task StackConfig_DockerStackYml_RendersEveryServiceAndExternalSecret()
    {
        string yaml = await StackYaml.RenderAsync("docker-stack.yml");

        Assert.Equal(Services, StackYaml.Keys(yaml, "services").Order(StringComparer.Ordinal));
        Assert.Equal(["mssql_conf", "rabbitmq_cluster_conf", "rabbitmq_join_conf", "rabbitmq_seed_conf"], StackYaml.Keys(yaml, "configs").Order(StringComparer.Ordinal));
        Assert.Equal(Secrets.Order(StringComparer.Ordinal), StackYaml.Keys(yaml, "secrets").Order(StringComparer.Ordinal));
        Assert.All(Secrets, s => Assert.Contains("    external: true", StackYaml.Block(yaml, "secrets", s)));
    }

    [Theory]
    [InlineData("producer", "worker")]
    [InlineData("consumer", "worker")]
    [InlineData("unsubscribe", "worker")]
    [InlineData("gateway", "worker")]
    [InlineData("console", "worker")]
    [InlineData("bounces", "worker")]
    [InlineData("rabbitmq-1", "broker")]
    [InlineData("rabbitmq-2", "broker")]
    [InlineData("rabbitmq-3", "broker")]
    [InlineData("sqlserver", "db")]
    public async Task StackConfig_Service_IsPlacedByRoleLabelWithLimitsAndHealthcheck(string service, string role)
    {
        var block = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.yml"), "services", service);

        Assert.Contains($"          - node.labels.notifications.role == {role}", block);
        Assert.Contains("        limits:", block);
        Assert.Contains("    healthcheck:", block);
        Assert.Contains("      backend: null", block);
    }

    [Theory]
    [InlineData("producer")]
    [InlineData("consumer")]
    [InlineData("gateway")]
    public async Task StackConfig_Worker_GetsCredentialsAsSecretsAndOutlastsItsShutdown(string service)
    {
        string yaml = await StackYaml.RenderAsync("docker-stack.yml");
        var block = StackYaml.Block(yaml, "services", service);

        // Its own database role's login (docs/security.md) and its own broker user (docs/broker-users.md), each mounted
        // under the key the workers read.
        Assert.Contains($"      - source: database_{service}", block);
        Assert.Contains("        target: Database__ConnectionString", block);
        Assert.Contains($"      - source: {service}_RabbitMq__Uri", block);
        Assert.Contains("        target: RabbitMq__Uri", block);
        string grace = Assert.Single(block, l => l.StartsWith("    stop_grace_period: ", StringComparison.Ordinal));
        Assert.True(StackYaml.Duration(grace) > HostShutdownTimeout(), $"{service}: {grace.Trim()} is not longer than the host's shutdown timeout {HostShutdownTimeout()}");
    }

    [Theory]
    [InlineData("docker-stack.yml", "producer", 9464)]
    [InlineData("docker-stack.yml", "consumer", 9465)]
    [InlineData("docker-stack.yml", "unsubscribe", 9466)]
    [InlineData("docker-stack.yml", "gateway", 9467)]
    [InlineData("docker-stack.yml", "console", 9468)]
    [InlineData("docker-stack.yml", "bounces", 9469)]
    [InlineData("docker-stack.postgres.yml", "producer", 9464)]
    [InlineData("docker-stack.postgres.yml", "consumer", 9465)]
    [InlineData("docker-stack.postgres.yml", "unsubscribe", 9466)]
    [InlineData("docker-stack.postgres.yml", "gateway", 9467)]
    [InlineData("docker-stack.postgres.yml", "console", 9468)]
    [InlineData("docker-stack.postgres.yml", "bounces", 9469)]
    public async Task StackConfig_Worker_HealthcheckWaitsUntilItReachedBrokerAndDatabase(string file, string service, int port)
    {
        string yaml = await StackYaml.RenderAsync(file);
        var block = StackYaml.Block(yaml, "services", service);

        // started = live, and ready (broker and database) at least once: "healthy" no longer before either is reached. Asked
        // of the worker's own operations port, on every address (the check runs inside its container).
        string check = StackHealthcheck.Of(yaml, service);
        Assert.StartsWith($"exec 3<>/dev/tcp/127.0.0.1/${{Metrics__Port:-{port}}} && ", check, StringComparison.Ordinal);
        Assert.Contains("\"GET /health/started HTTP/1.0\\r\\n\\r\\n\"", check, StringComparison.Ordinal);
        Assert.Contains("      Metrics__Address: 0.0.0.0", block);

        // Asked every 10 s (a task is "running", and a rolling update moves on, at its first passing check: engines before
        // Docker 25 drop start_interval, and 30 s made each new task wait 30 s), every 2 s while it starts where the engine
        // knows start_interval; starting for as long as the broker nodes may take to form their cluster, not replaced before.
        var health = StackYaml.Block(yaml, "services", service, "healthcheck");
        Assert.Contains("      start_interval: 2s", health);
        Assert.Contains("      interval: 10s", health);
        Assert.Contains("      start_period: 5m0s", health);
    }

    [Fact]
    public async Task StackConfig_Unsubscribe_OwnLoginTheConsumersKeyNoBrokerUser()
    {
        string yaml = await StackYaml.RenderAsync("docker-stack.yml");
        var unsubscribe = StackYaml.Block(yaml, "services", "unsubscribe");
        var consumer = StackYaml.Block(yaml, "services", "consumer");

        // docs/unsubscribe.md: the internet-facing worker has its own login, the consumer's token key, no broker user.
        Assert.Contains("      - source: database_unsubscribe", unsubscribe);
        Assert.Contains("      - source: unsubscribe_key", unsubscribe);
        Assert.Contains("      - source: unsubscribe_key", consumer);
        Assert.Contains("        target: Unsubscribe__Keys__1", unsubscribe);
        Assert.DoesNotContain(unsubscribe, l => l.Contains("RabbitMq", StringComparison.Ordinal));
        Assert.Contains("      Unsubscribe__Address: 0.0.0.0", unsubscribe);
    }

    /// <summary>
    /// The live gateway (docs/live.md): two replicas or more (a client whose node dies reconnects to another), its public port
    /// over TLS with its own certificate and a key only its user reads, the key apps' tokens are signed with, and no port
    /// published (an operator's proxy forwards to gateway:8090, never to the operations port).
    /// </summary>
    [Theory]
    [InlineData("docker-stack.yml")]
    [InlineData("docker-stack.postgres.yml")]
    public async Task StackConfig_Gateway_TwoReplicasTlsFromSecretsTheTokenKeyNoPortPublished(string file)
    {
        string yaml = await StackYaml.RenderAsync(file);
        var gateway = StackYaml.Block(yaml, "services", "gateway");
        var deploy = StackYaml.Block(yaml, "services", "gateway", "deploy");

        int replicas = int.Parse(Assert.Single(deploy, l => l.StartsWith("      replicas: ", StringComparison.Ordinal)).Split(": ")[1], CultureInfo.InvariantCulture);
        Assert.True(replicas >= 2, $"{file}: {replicas} gateway replica(s)");
        Assert.Contains("      Gateway__Address: 0.0.0.0", gateway);
        Assert.Contains("      Gateway__Port: \"8090\"", gateway);
        Assert.Contains("      Gateway__Certificate: /run/secrets/tls_gateway.crt", gateway);
        Assert.Contains("      Gateway__CertificateKey: /run/secrets/tls_gateway.key", gateway);
        Assert.Contains("      - source: tls_gateway_crt", gateway);
        int key = gateway.ToList().IndexOf("      - source: tls_gateway_key");
        Assert.True(key >= 0, $"{file}: the gateway mounts no tls_gateway_key");
        Assert.Contains("        mode: 256", gateway.Skip(key).TakeWhile((l, i) => i == 0 || !l.StartsWith("      - ", StringComparison.Ordinal)));  // 0400
        Assert.Contains("      - source: gateway_token_key", gateway);
        Assert.Contains("        target: Gateway__TokenKey", gateway);
        Assert.Contains("        order: start-first", StackYaml.Block(yaml, "services", "gateway", "deploy", "update_config"));
        Assert.DoesNotContain(gateway, l => l.StartsWith("    ports:", StringComparison.Ordinal));
    }

    [Fact]
    public async Task StackConfig_SqlServerHealthcheck_PassesNoPasswordAsAnArgument()
    {
        var block = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.yml"), "services", "sqlserver", "healthcheck");
        string test = string.Join(" ", block);

        // sqlcmd reads SQLCMDPASSWORD (set from the secret inside the check's shell): `ps` and `docker inspect` show no value.
        Assert.Contains("SQLCMDPASSWORD=", test, StringComparison.Ordinal);
        Assert.DoesNotContain(" -P ", test, StringComparison.Ordinal);
    }

    [Fact]
    public async Task StackConfig_EnvironmentOfEveryService_HoldsNoCredential()
    {
        string yaml = await StackYaml.RenderAsync("docker-stack.yml");

        var environment = Services.SelectMany(s => StackYaml.Block(yaml, "services", s, "environment")).ToList();

        Assert.NotEmpty(environment);
        Assert.DoesNotContain(environment, l => l.Contains("password", StringComparison.OrdinalIgnoreCase));
        Assert.DoesNotContain(environment, l => l.Contains("amqp://", StringComparison.OrdinalIgnoreCase));
        Assert.DoesNotContain(environment, l => l.Contains("ConnectionString", StringComparison.OrdinalIgnoreCase));
    }

    [Fact]
    public async Task StackConfig_BackendNetwork_IsAnEncryptedAttachableOverlay()
    {
        var network = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.yml"), "networks", "backend");

        Assert.Contains("    driver: overlay", network);
        Assert.Contains("      encrypted: \"true\"", network);
        Assert.Contains("    attachable: true", network);
    }

    // Proves the CLI validates: the checks above can fail.
    [Fact]
    public async Task StackConfig_InvalidStackFile_ExitsNonZero()
    {
        string file = Path.Combine(Path.GetTempPath(), $"stack-{Guid.NewGuid():N}.yml");
        await File.WriteAllTextAsync(file, "services:\n  broken:\n    image: x\n    stop_grace_period: soon\n");
        try
        {
            var (exitCode, _, _) = await DockerCli.RunAsync("stack", "config", "-c", file);

            Assert.NotEqual(0, exitCode);
        }
        finally
        {
            File.Delete(file);
        }
    }

    // The consumer's host waits this long for ConsumerOptions.ShutdownTimeout (in-flight handlers) to end.
    private static TimeSpan HostShutdownTimeout()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.AddConsumer();
        using var host = builder.Build();
        var hostTimeout = host.Services.GetRequiredService<IOptions<HostOptions>>().Value.ShutdownTimeout;
        var handlerTimeout = new ConsumerOptions().ShutdownTimeout;
        return hostTimeout > handlerTimeout ? hostTimeout : handlerTimeout;
    }
}
