using Microsoft.Extensions.Options;
using Notifications.UnitTests.Messaging;

namespace Notifications.UnitTests.Hosting;

public sealed class RabbitMqTlsOptionsTests
{
    [Fact]
    public void BrokerEndpoints_AmqpsUriWithoutPort_TlsOn5671CheckedAgainstTheHost()
    {
        var options = RabbitMqOptionsBinding.Bind(new() { ["RabbitMq:Uri"] = "amqps://u:p@rabbitmq-1/" });

        var endpoint = Assert.Single(options.BrokerEndpoints());
        Assert.Equal(("rabbitmq-1", 5671), (endpoint.HostName, endpoint.Port));
        Assert.True(endpoint.Ssl.Enabled);
        Assert.Equal("rabbitmq-1", endpoint.Ssl.ServerName);
        Assert.Null(endpoint.Ssl.CertificateValidationCallback);  // no CA configured: the system's roots
    }

    [Fact]
    public void BrokerEndpoints_AmqpsUriAndEndpointList_EveryNodeTlsWithItsOwnNameAndTheCa()
    {
        using var ca = TestCertificates.Ca("notifications test CA");
        string path = TestCertificates.WritePem(ca);
        try
        {
            var options = RabbitMqOptionsBinding.Bind(new()
            {
                ["RabbitMq:Uri"] = "amqps://u:p@rabbitmq-1/",
                ["RabbitMq:Endpoints"] = "rabbitmq-1,rabbitmq-2:5671,rabbitmq-3:5699",
                ["RabbitMq:CaCertificate"] = path,
            });

            var endpoints = options.BrokerEndpoints();
            Assert.Equal(["rabbitmq-1:5671", "rabbitmq-2:5671", "rabbitmq-3:5699"], endpoints.Select(e => $"{e.HostName}:{e.Port}"));
            Assert.All(endpoints, e => Assert.True(e.Ssl.Enabled));
            Assert.Equal(["rabbitmq-1", "rabbitmq-2", "rabbitmq-3"], endpoints.Select(e => e.Ssl.ServerName));
            Assert.All(endpoints, e => Assert.NotNull(e.Ssl.CertificateValidationCallback));
        }
        finally
        {
            File.Delete(path);
        }
    }

    [Fact]
    public void BrokerEndpoints_AmqpUri_NoTls()
    {
        var options = RabbitMqOptionsBinding.Bind(new() { ["RabbitMq:Uri"] = "amqp://u:p@rabbitmq/", ["RabbitMq:Endpoints"] = "a,b:5673" });

        Assert.All(options.BrokerEndpoints(), e => Assert.False(e.Ssl.Enabled));
        Assert.Equal([5672, 5673], options.BrokerEndpoints().Select(e => e.Port));
    }

    [Fact]
    public void AddRabbitMqOptions_CaCertificateWithPlainAmqp_FailsValidationNamingTheKey()
    {
        var error = Assert.Throws<OptionsValidationException>(() => RabbitMqOptionsBinding.Bind(new()
        {
            ["RabbitMq:Uri"] = "amqp://u:p@rabbitmq/",
            ["RabbitMq:CaCertificate"] = "/run/secrets/notifications_ca",
        }));

        Assert.Contains("RabbitMq:CaCertificate", error.Message, StringComparison.Ordinal);
        Assert.Contains("amqps", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddRabbitMqOptions_CaCertificateMissingFile_FailsValidationNamingThePath()
    {
        string path = Path.Combine(Path.GetTempPath(), $"no-such-ca-{Guid.NewGuid():N}.pem");

        var error = Assert.Throws<OptionsValidationException>(() => RabbitMqOptionsBinding.Bind(new()
        {
            ["RabbitMq:Uri"] = "amqps://u:p@rabbitmq/",
            ["RabbitMq:CaCertificate"] = path,
        }));

        Assert.Contains($"RabbitMq:CaCertificate '{path}'", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddRabbitMqOptions_CaCertificateNotACertificate_FailsValidation()
    {
        string path = Path.GetTempFileName();
        File.WriteAllText(path, "not a certificate");
        try
        {
            var error = Assert.Throws<OptionsValidationException>(() => RabbitMqOptionsBinding.Bind(new()
            {
                ["RabbitMq:Uri"] = "amqps://u:p@rabbitmq/",
                ["RabbitMq:CaCertificate"] = path,
            }));

            Assert.Contains("is not a readable X.509 certificate", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
