namespace Notifications.IntegrationTests.Deployment;

/// <summary>
/// The bounce receiver in both stacks (docs/bounces.md, docs/deploying.md): its own login and no broker user, the consumer's
/// return-path key under the same key id and bounce domain, STARTTLS with its certificate and a key only its user reads, and
/// SMTP on 2525 in the container: docker-stack.yml publishes the node's port 25 to it in host mode (no routing mesh with
/// dnsrr), one replica per node; the local stack publishes nothing.
/// </summary>
public sealed class BouncesStackTests
{
    [Theory]
    [InlineData("docker-stack.yml")]
    [InlineData("docker-stack.postgres.yml")]
    public async Task StackConfig_Bounces_OwnLoginTheConsumersKeyAndDomainStartTlsNoBrokerUser(string file)
    {
        string yaml = await StackYaml.RenderAsync(file);
        var bounces = StackYaml.Block(yaml, "services", "bounces");
        var consumer = StackYaml.Block(yaml, "services", "consumer");

        Assert.Contains("      - source: database_bounces", bounces);
        Assert.Contains("        target: Database__ConnectionString", bounces);
        Assert.DoesNotContain(bounces, l => l.Contains("RabbitMq", StringComparison.Ordinal));
        foreach (var service in new[] { bounces, consumer })
        {
            Assert.Contains("      - source: bounces_key", service);
            Assert.Contains("        target: Bounces__Keys__0__Secret", service);
        }

        // The consumer signs with the key id and domain the receiver verifies.
        string Env(IReadOnlyList<string> block, string key) => Assert.Single(block, l => l.StartsWith($"      {key}: ", StringComparison.Ordinal));
        Assert.Equal(Env(consumer, "Bounces__Domain"), Env(bounces, "Bounces__Domain"));
        Assert.Equal(Env(consumer, "Bounces__Keys__0__Id"), Env(bounces, "Bounces__Keys__0__Id"));

        Assert.Contains("      Bounces__Address: 0.0.0.0", bounces);
        Assert.Contains("      Bounces__Port: \"2525\"", bounces);
        Assert.Contains("      Bounces__Certificate: /run/secrets/tls_bounces.crt", bounces);
        Assert.Contains("      Bounces__CertificateKey: /run/secrets/tls_bounces.key", bounces);
        int key = bounces.ToList().IndexOf("      - source: tls_bounces_key");
        Assert.True(key >= 0, $"{file}: the bounces service mounts no tls_bounces_key");
        Assert.Contains("        mode: 256", bounces.Skip(key).TakeWhile((l, i) => i == 0 || !l.StartsWith("      - ", StringComparison.Ordinal)));  // 0400
    }

    [Fact]
    public async Task StackConfig_BouncesInProduction_PublishesTheNodesPort25InHostModeOneReplicaPerNode()
    {
        string yaml = await StackYaml.RenderAsync("docker-stack.yml");

        var ports = StackYaml.Block(yaml, "services", "bounces", "ports");
        Assert.Contains("      - mode: host", ports);
        Assert.Contains("        target: 2525", ports);
        Assert.Contains("        published: 25", ports);
        Assert.Contains("        max_replicas_per_node: 1", StackYaml.Block(yaml, "services", "bounces", "deploy"));
    }

    [Fact]
    public async Task StackConfig_BouncesLocally_PublishesNoPort()
    {
        var bounces = StackYaml.Block(await StackYaml.RenderAsync("docker-stack.postgres.yml"), "services", "bounces");

        Assert.DoesNotContain(bounces, l => l.StartsWith("    ports:", StringComparison.Ordinal));
    }
}
