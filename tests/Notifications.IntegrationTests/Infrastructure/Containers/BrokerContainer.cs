using System.Net.Http.Headers;
using System.Text;
using DotNet.Testcontainers.Builders;
using DotNet.Testcontainers.Configurations;
using DotNet.Testcontainers.Containers;
using RabbitMQ.Client;

namespace Notifications.IntegrationTests.Infrastructure.Containers;

/// <summary>
/// RabbitMQ in a container, configured like scripts/setup's broker (user notifications/notifications, an
/// administrator; management API; the fault suite's <c>chaos</c> vhost). The generic builder, not
/// Testcontainers.RabbitMq: that module waits for a log line the official image prints to stdout and sets
/// the user through the official entrypoint's variables; a rabbitmq.conf and enabled_plugins file at the
/// standard paths work the same in the official image and in one built from Debian's rabbitmq-server.
/// </summary>
internal sealed class BrokerContainer : IAsyncDisposable
{
    public const string User = "notifications";
    private const string Password = "notifications";
    private const ushort AmqpPort = 5672;
    private const ushort ManagementPort = 15672;

    private static readonly string Config = $"""
        # notifications: integration tests (Infrastructure/Containers/BrokerContainer.cs)
        listeners.tcp.default = {AmqpPort}
        management.tcp.port = {ManagementPort}
        loopback_users = none
        default_user = {User}
        default_pass = {Password}
        default_user_tags.administrator = true
        default_permissions.configure = .*
        default_permissions.read = .*
        default_permissions.write = .*

        """;

    private readonly IContainer _container;

    private BrokerContainer(IContainer container) => _container = container;

    public string Image => _container.Image.FullName;

    public string Id => _container.Id;

    public Uri AmqpUri => new($"amqp://{User}:{Password}@{Loopback.Host}:{_container.GetMappedPublicPort(AmqpPort)}/");

    public Uri ManagementUri => new($"http://{Loopback.Host}:{_container.GetMappedPublicPort(ManagementPort)}/");

    public static async Task<BrokerContainer> StartAsync(string image)
    {
        var container = new ContainerBuilder(image)
            .WithPortBinding(AmqpPort, assignRandomHostPort: true)
            .WithPortBinding(ManagementPort, assignRandomHostPort: true)
            .WithCreateParameterModifier(Loopback.PublishOnly)
            .WithResourceMapping(Encoding.UTF8.GetBytes(Config), "/etc/rabbitmq/rabbitmq.conf")
            .WithResourceMapping(Encoding.UTF8.GetBytes("[rabbitmq_management].\n"), "/etc/rabbitmq/enabled_plugins")
            .WithWaitStrategy(Wait.ForUnixContainer().AddCustomWaitStrategy(new Ready(),
                wait => wait.WithInterval(TimeSpan.FromSeconds(1)).WithTimeout(TimeSpan.FromMinutes(3))))
            .Build();
        var broker = new BrokerContainer(container);
        try
        {
            await container.StartAsync();
            await broker.RunAsync($"rabbitmqctl -q add_vhost chaos && rabbitmqctl -q set_permissions -p chaos {User} '.*' '.*' '.*'");
            return broker;
        }
        catch
        {
            await container.DisposeAsync();
            throw;
        }
    }

    /// <summary>Runs a shell command inside the broker's container (rabbitmqctl and the like); fails on a non-zero exit.</summary>
    public async Task<string> RunAsync(string command)
    {
        var result = await _container.ExecAsync(["sh", "-c", command]);
        return result.ExitCode == 0
            ? result.Stdout
            : throw new InvalidOperationException($"`{command}` in the broker's container exited {result.ExitCode}: {result.Stdout}{result.Stderr}");
    }

    /// <summary>Freezes every process of the container for <paramref name="duration"/> (a hung broker).</summary>
    public async Task PauseAsync(TimeSpan duration)
    {
        await _container.PauseAsync();
        await Task.Delay(duration);
        await _container.UnpauseAsync();
    }

    public ValueTask DisposeAsync() => _container.DisposeAsync();

    /// <summary>Ready when the test user can open an AMQP connection and read the management API's overview.</summary>
    private sealed class Ready : IWaitUntil
    {
        public async Task<bool> UntilAsync(IContainer container)
        {
            var broker = new BrokerContainer(container);
            try
            {
                await using (await new ConnectionFactory { Uri = broker.AmqpUri }.CreateConnectionAsync())
                {
                }

                using var http = new HttpClient { BaseAddress = broker.ManagementUri, Timeout = TimeSpan.FromSeconds(5) };
                http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", Convert.ToBase64String(Encoding.UTF8.GetBytes($"{User}:{Password}")));
                using var response = await http.GetAsync(new Uri("api/overview", UriKind.Relative));
                return response.IsSuccessStatusCode;
            }
            catch (Exception e) when (e is RabbitMQ.Client.Exceptions.BrokerUnreachableException or HttpRequestException or TaskCanceledException)
            {
                return false;
            }
        }
    }
}
