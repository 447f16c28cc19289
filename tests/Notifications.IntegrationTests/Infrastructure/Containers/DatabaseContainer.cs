using Notifications.Shared.Hosting;
using Npgsql;
using Testcontainers.PostgreSql;

namespace Notifications.IntegrationTests.Infrastructure.Containers;

/// <summary>
/// PostgreSQL in a container (Testcontainers.PostgreSql), with the test database scripts/setup makes:
/// <c>notifications_test</c> owned by notifications/notifications, migrated as scripts/setup migrates it
/// (<c>notifications-admin migrate</c>'s migrator, in process: nothing needed on the host).
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
            var database = new DatabaseContainer(container);
            await TestMigrations.MigrateAsync(database.ConnectionString, DatabaseProvider.Postgres, TestDatabase.Schema);
            return database;
        }
        catch
        {
            await container.DisposeAsync();
            throw;
        }
    }

    public ValueTask DisposeAsync() => _container.DisposeAsync();
}
