namespace Notifications.IntegrationTests.Infrastructure.Containers;

/// <summary>
/// The broker and the database in containers, each started once per test run on first use (only when its
/// NOTIFICATIONS_TEST_* endpoint is unset, see <see cref="TestServices"/>) and removed after the last
/// test of the services collection (<see cref="ContainerLifetime"/>), or else when the test process exits.
/// A start-up failure (no Docker engine, an image that cannot be pulled, the engine restarted mid-start)
/// is kept: every test that needs the service fails at once with the reason, none waits for it again.
/// </summary>
internal static class ContainerServices
{
    private static readonly Lazy<Task<BrokerContainer>> LazyBroker = new(() => Task.Run(async () =>
    {
        var broker = await BrokerContainer.StartAsync(ContainerImages.RabbitMq);
        ServiceLog.Note("RabbitMQ", $"Testcontainers, image {broker.Image}, container {broker.Id[..12]}, AMQP at {broker.AmqpUri.Host}:{broker.AmqpUri.Port}");
        return broker;
    }));

    private static readonly Lazy<Task<DatabaseContainer>> LazyDatabase = new(() => Task.Run(async () =>
    {
        var database = await DatabaseContainer.StartAsync(ContainerImages.Postgres);
        ServiceLog.Note("PostgreSQL", $"Testcontainers, image {database.Image}, container {database.Id[..12]}, schema migrated (notifications-admin migrate)");
        return database;
    }));

    static ContainerServices() => AppDomain.CurrentDomain.ProcessExit += (_, _) => RemoveAll();

    public static BrokerContainer Broker => Started(LazyBroker, "RabbitMQ", ContainerImages.RabbitMq, TestServices.RabbitMqVariable);

    public static DatabaseContainer Database => Started(LazyDatabase, "PostgreSQL", ContainerImages.Postgres, TestServices.PostgresVariable);

    private static T Started<T>(Lazy<Task<T>> service, string name, string image, string variable)
    {
        try
        {
            // Task.Run above: the start-up never needs the test's synchronization context, so waiting here cannot deadlock.
            return service.Value.GetAwaiter().GetResult();
        }
        catch (Exception e)
        {
            ServiceLog.Note(name, $"Testcontainers, image {image}: did not start — {e.Message.Split('\n')[0].Trim()}");
            throw new InvalidOperationException(
                $"{variable} is not set, so the tests start {name} with Testcontainers from image '{image}', which failed: {e.Message} "
                + $"Either make a Docker engine reachable with that image (or pulled from a registry; {ContainerImages.SetVariable}=local "
                + "picks the images built here), or set the endpoint: scripts/test does (it starts the services with scripts/setup).", e);
        }
    }

    /// <summary>Removes the containers started so far (at the end of the services collection, and at process exit).</summary>
    public static async Task RemoveAllAsync()
    {
        var started = new List<IAsyncDisposable>();
        if (LazyBroker.IsValueCreated && LazyBroker.Value.IsCompletedSuccessfully)
        {
            started.Add(LazyBroker.Value.Result);
        }

        if (LazyDatabase.IsValueCreated && LazyDatabase.Value.IsCompletedSuccessfully)
        {
            started.Add(LazyDatabase.Value.Result);
        }

        await Task.WhenAll(started.Select(container => container.DisposeAsync().AsTask()));
    }

    private static void RemoveAll() => RemoveAllAsync().Wait(TimeSpan.FromSeconds(60));
}
