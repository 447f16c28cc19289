using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Deployment;

/// <summary>
/// Both stacks as the docker CLI renders them: three RabbitMQ nodes, one service each, with their own certificate,
/// key (readable by the broker's user only) and the shared Erlang cookie; workers on amqps with all three nodes, the
/// CA and quorum queues; the databases' TLS settings (docs/tls.md, docs/cluster.md). scripts/swarm tls-check proves
/// the running stack refuses plaintext; these keep the files from drifting.
/// </summary>
public sealed class StackTlsClusterTests
{

    public static TheoryData<string, string> BrokerNodes() => new()
    {
        { "docker-stack.yml", "rabbitmq-1" }, { "docker-stack.yml", "rabbitmq-2" }, { "docker-stack.yml", "rabbitmq-3" },
        { "docker-stack.postgres.yml", "rabbitmq-1" }, { "docker-stack.postgres.yml", "rabbitmq-2" }, { "docker-stack.postgres.yml", "rabbitmq-3" },
    };

    [Theory]
    [MemberData(nameof(BrokerNodes))]
    public async Task StackConfig_BrokerNode_FixedHostnameOwnVolumeOwnCertificateAndPrivateKey(string file, string node)
    {
        var block = StackYaml.Block(await StackYaml.RenderAsync(file), "services", node);

        Assert.Contains($"    hostname: {node}", block);
        Assert.Contains($"        source: {node}-data", block);
        Assert.Contains("      - source: rabbitmq_cluster_conf", block);
        Assert.Contains("      - source: rabbitmq_erlang_cookie", block);
        Assert.Contains($"      - source: tls_{node}_crt", block);
        int key = block.ToList().IndexOf($"      - source: tls_{node}_key");
        Assert.True(key >= 0, $"{node} mounts no tls_{node}_key");
        Assert.Contains("        mode: 256", block.Skip(key).TakeWhile((l, i) => i == 0 || !l.StartsWith("      - ", StringComparison.Ordinal)));  // 0400
    }

    [Theory]
    [InlineData("docker-stack.yml", "producer")]
    [InlineData("docker-stack.yml", "consumer")]
    [InlineData("docker-stack.postgres.yml", "producer")]
    [InlineData("docker-stack.postgres.yml", "consumer")]
    [InlineData("docker-stack.yml", "gateway")]
    [InlineData("docker-stack.postgres.yml", "gateway")]
    public async Task StackConfig_Worker_AllThreeNodesOverTlsWithTheCaAndQuorumQueues(string file, string worker)
    {
        var block = StackYaml.Block(await StackYaml.RenderAsync(file), "services", worker);

        Assert.Contains("      RabbitMq__Endpoints: rabbitmq-1:5671,rabbitmq-2:5671,rabbitmq-3:5671", block);
        Assert.Contains("      RabbitMq__CaCertificate: /run/secrets/tls_ca.crt", block);
        Assert.Contains("      RabbitMq__QueueType: Quorum", block);
        Assert.Contains("      - source: tls_ca_crt", block);
    }

    [Fact]
    public void ClusterConf_TlsListenerOnlyAndClassicConfigDiscoveryOfTheThreeNodes()
    {
        var lines = File.ReadAllLines(RepositoryLayout.File("deploy/rabbitmq/cluster.conf"));

        Assert.Contains("listeners.tcp = none", lines);
        Assert.Contains("listeners.ssl.default = 5671", lines);
        Assert.Contains("ssl_options.keyfile = /run/secrets/tls_server.key", lines);
        Assert.Contains("cluster_formation.peer_discovery_backend = classic_config", lines);
        Assert.Equal(["rabbit@rabbitmq-1", "rabbit@rabbitmq-2", "rabbit@rabbitmq-3"],
            lines.Where(l => l.StartsWith("cluster_formation.classic_config.nodes.", StringComparison.Ordinal)).Select(l => l.Split(" = ")[1]));
    }

    [Fact]
    public async Task StackConfig_Postgres_SslOnAndPlaintextRejectedByPgHba()
    {
        var block = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.postgres.yml"), "services", "postgres");
        var hba = File.ReadAllLines(RepositoryLayout.File("deploy/local/postgres-pg_hba.conf")).Where(l => !l.StartsWith('#') && l.Trim().Length > 0).ToList();

        Assert.Contains("      - ssl=on", block);
        Assert.Contains("      - hba_file=/etc/postgresql/pg_hba.conf", block);
        Assert.DoesNotContain(hba, l => l.StartsWith("host ", StringComparison.Ordinal));  // "host" would also match plaintext
        Assert.Contains(hba, l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries) is ["hostnossl", "all", "all", "all", "reject"]);
    }

    [Fact]
    public async Task StackConfig_SqlServer_CertificateFromSecretsAndForcedEncryption()
    {
        var block = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.yml"), "services", "sqlserver");
        var conf = File.ReadAllLines(RepositoryLayout.File("deploy/sqlserver/mssql.conf"));

        Assert.Contains("      - source: mssql_conf", block);
        Assert.Contains("      - source: tls_sqlserver_key", block);
        Assert.Contains("tlscert = /run/secrets/tls_server.crt", conf);
        Assert.Contains("tlskey = /run/secrets/tls_server.key", conf);
        Assert.Contains("forceencryption = 1", conf);
    }
}
