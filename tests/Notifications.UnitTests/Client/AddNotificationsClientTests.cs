using Microsoft.Data.SqlClient;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.Client.SqlServer;

namespace Notifications.UnitTests.Client;

/// <summary>The DI registration and the dialect lookup, without a database.</summary>
public sealed class AddNotificationsClientTests
{
    [Fact]
    public void AddNotificationsClient_NotAPlainSchema_ThrowsAtRegistration()
    {
        var refused = Assert.Throws<ArgumentException>(() =>
            new ServiceCollection().AddNotificationsClient(o => o.UseSqlServer("Server=.;Database=x").Schema = "x; DROP TABLE outbox"));

        Assert.Contains("not a plain schema name", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void AddNotificationsClient_SqlServer_RegistersOneSingletonOutbox()
    {
        using var services = new ServiceCollection()
            .AddNotificationsClient(o => o.UseSqlServer("Server=127.0.0.1,1;Database=x"))
            .BuildServiceProvider(new ServiceProviderOptions { ValidateOnBuild = true, ValidateScopes = true });

        var outbox = services.GetRequiredService<INotificationOutbox>();

        Assert.Same(outbox, services.GetRequiredService<INotificationOutbox>());
    }

    [Fact]
    public void OutboxDialectsFor_SqlConnection_TheSqlServerPackagesDialect()
    {
        using var connection = new SqlConnection();

        Assert.IsType<SqlServerOutboxDialect>(OutboxDialects.For(connection));
    }

    [Fact]
    public async Task EnqueueAsync_RefusedField_ArgumentExceptionBeforeAnyConnection()
    {
        // Nothing listens on port 1: opening a connection would fail with a SqlException, not an ArgumentException.
        await using var services = new ServiceCollection()
            .AddNotificationsClient(o => o.UseSqlServer("Server=127.0.0.1,1;Database=x;Connect Timeout=1"))
            .BuildServiceProvider();

        await Assert.ThrowsAsync<ArgumentOutOfRangeException>(() => services.GetRequiredService<INotificationOutbox>()
            .EnqueueAsync(new NewNotification("a@example.com", "Hi", "body") { Priority = (NotificationPriority)7 }));
    }
}
