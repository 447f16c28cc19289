namespace Notifications.IntegrationTests.Infrastructure.Containers;

/// <summary>
/// Which images the fixtures start. Default: the official images (pulled where a registry is reachable).
/// NOTIFICATIONS_TEST_IMAGES=local picks the images built on this machine from Debian's packages (no
/// registry needed); NOTIFICATIONS_TEST_{RABBITMQ,POSTGRES,SQLSERVER}_IMAGE name one image exactly.
/// </summary>
internal static class ContainerImages
{
    public const string SetVariable = "NOTIFICATIONS_TEST_IMAGES";

    public static string RabbitMq => Choose("NOTIFICATIONS_TEST_RABBITMQ_IMAGE", "rabbitmq:3.10-management", "notifications/rabbitmq:local", Environment.GetEnvironmentVariable);

    public static string Postgres => Choose("NOTIFICATIONS_TEST_POSTGRES_IMAGE", "postgres:15", "notifications/postgres:local", Environment.GetEnvironmentVariable);

    /// <summary>No local build exists: SQL Server's image comes from Microsoft's registry only.</summary>
    public static string SqlServer => Choose("NOTIFICATIONS_TEST_SQLSERVER_IMAGE", "mcr.microsoft.com/mssql/server:2022-latest", null, Environment.GetEnvironmentVariable);

    /// <summary>The image named by <paramref name="variable"/>, else the set <see cref="SetVariable"/> picks.</summary>
    internal static string Choose(string variable, string official, string? local, Func<string, string?> environment)
    {
        if (environment(variable) is { Length: > 0 } image)
        {
            return image;
        }

        return environment(SetVariable) switch
        {
            null or "" or "official" => official,
            "local" => local ?? official,
            string other => throw new InvalidOperationException(
                $"{SetVariable}={other} is not understood: use 'official' (default) or 'local', or name an image in {variable}."),
        };
    }
}
