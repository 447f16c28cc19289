using Npgsql;
using Testcontainers.PostgreSql;

namespace Notifications.IntegrationTests.Infrastructure.Containers;

/// <summary>
/// PostgreSQL in a container (Testcontainers.PostgreSql), with the test database scripts/setup makes:
/// <c>notifications_test</c> owned by notifications/notifications, db/postgres/*.sql applied in order.
/// </summary>
internal sealed class DatabaseContainer : IAsyncDisposable
{
    private const string Database = "notifications_test";
    private const string User = "notifications";
    private const string Password = "notifications";

    private readonly PostgreSqlContainer _container;

    private DatabaseContainer(PostgreSqlContainer container) => _container = container;

    public string Image => _container.Image.FullName;

    public string Id => _container.Id;

    public string ConnectionString => new NpgsqlConnectionStringBuilder(_container.GetConnectionString()) { Host = Loopback.Host }.ConnectionString;

    public static async Task<DatabaseContainer> StartAsync(string image)
    {
        var container = new PostgreSqlBuilder(image).WithDatabase(Database).WithUsername(User).WithPassword(Password)
            .WithCreateParameterModifier(Loopback.PublishOnly).Build();
        try
        {
            await container.StartAsync();
            await ApplySchemaAsync(container);
            return new DatabaseContainer(container);
        }
        catch
        {
            await container.DisposeAsync();
            throw;
        }
    }

    public ValueTask DisposeAsync() => _container.DisposeAsync();

    /// <summary>
    /// As scripts/setup does it: <c>psql -v ON_ERROR_STOP=1 -v schema=notifications -f</c> each file in name
    /// order, over TCP with the password, here with the container's own psql (nothing needed on the host).
    /// </summary>
    private static async Task ApplySchemaAsync(PostgreSqlContainer container)
    {
        var files = Directory.GetFiles(RepositoryLayout.File("db", "postgres"), "*.sql").Order(StringComparer.Ordinal);
        foreach (string file in files)
        {
            string target = "/tmp/notifications-schema/" + Path.GetFileName(file);
            await container.CopyAsync(await File.ReadAllBytesAsync(file), target);
            var result = await container.ExecAsync(
            [
                "env", $"PGPASSWORD={Password}", "PGOPTIONS=-c client_min_messages=warning",
                "psql", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-U", User, "-d", Database, "-v", "schema=notifications", "-f", target,
            ]);
            if (result.ExitCode != 0)
            {
                throw new InvalidOperationException($"psql -f {Path.GetFileName(file)} in the database container exited {result.ExitCode}: {result.Stderr}");
            }
        }
    }
}
