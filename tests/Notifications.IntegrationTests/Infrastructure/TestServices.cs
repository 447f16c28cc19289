namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// Endpoints of the real services, from the environment that <c>scripts/test</c> sets up. A missing
/// endpoint fails the test with instructions; it is never a silent skip.
/// </summary>
internal static class TestServices
{
    public static string PostgresConnectionString => Require("NOTIFICATIONS_TEST_POSTGRES");

    public static Uri RabbitMqUri => new(Require("NOTIFICATIONS_TEST_RABBITMQ"));

    private static string Require(string variable) =>
        Environment.GetEnvironmentVariable(variable) is { Length: > 0 } value
            ? value
            : throw new InvalidOperationException(
                $"{variable} is not set. Integration tests need the real services: run scripts/test "
                + "(it installs and starts RabbitMQ, PostgreSQL and smtp-sink), or source .run/services.env after scripts/setup.");
}
