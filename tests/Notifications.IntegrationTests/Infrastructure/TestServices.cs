using Notifications.IntegrationTests.Infrastructure.Containers;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Endpoints of the real services. A NOTIFICATIONS_TEST_* variable wins (scripts/test sets them from
/// scripts/setup's services); without it the service is started in a container with Testcontainers
/// (<see cref="ContainerServices"/>). A service that is neither fails the test with instructions; it is
/// never a silent skip. How each service was had is written to .run/test-services.txt.
/// </summary>
internal static class TestServices
{
    public const string PostgresVariable = "NOTIFICATIONS_TEST_POSTGRES";
    public const string RabbitMqVariable = "NOTIFICATIONS_TEST_RABBITMQ";

    /// <summary>The owner's connection: the schema is migrated on first use (<see cref="TestMigrations"/>), a container's when it starts.</summary>
    public static string PostgresConnectionString =>
        FromEnvironment(PostgresVariable, "PostgreSQL") is { } value ? TestMigrations.Migrated(value) : ContainerServices.Database.ConnectionString;

    public static Uri RabbitMqUri => new(FromEnvironment(RabbitMqVariable, "RabbitMQ") ?? ContainerServices.Broker.AmqpUri.ToString());

    /// <summary>The management API: port 15672 of the broker's host (scripts/setup), or the container's mapped port.</summary>
    public static Uri RabbitMqManagementUri => BrokerContainer?.ManagementUri ?? new UriBuilder("http", RabbitMqUri.Host, 15672).Uri;

    /// <summary>The broker's container when the tests started one; null when the broker is the one named by the environment.</summary>
    public static BrokerContainer? BrokerContainer => FromEnvironment(RabbitMqVariable, "RabbitMQ") is null ? ContainerServices.Broker : null;

    private static string? FromEnvironment(string variable, string service)
    {
        if (Environment.GetEnvironmentVariable(variable) is not { Length: > 0 } value)
        {
            return null;
        }

        ServiceLog.Note(service, $"{variable} from the environment");
        return value;
    }
}
