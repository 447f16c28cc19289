using System.Data.Common;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Npgsql;

namespace Notifications.IntegrationTests.Audiences;

/// <summary>The audience registry as an app has it: the client from <c>AddNotificationsClient</c>, its transactions as the <c>notifications_app</c> role.</summary>
internal static class AppRegistry
{
    /// <summary>Runs <paramref name="work"/> in an app transaction, committed or rolled back.</summary>
    public static async Task InTransactionAsync(bool commit, Func<DbTransaction, Task> work)
    {
        await using var connection = new NpgsqlConnection(TestRoles.ConnectionString(DatabaseRole.App));
        await connection.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        await work(transaction);
        if (commit)
        {
            await transaction.CommitAsync();
        }
        else
        {
            await transaction.RollbackAsync();
        }
    }

    /// <summary>The client's services for the test schema, as the app role.</summary>
    public static ServiceProvider Services() =>
        new ServiceCollection()
            .AddNotificationsClient(o =>
            {
                o.UsePostgreSql(TestRoles.ConnectionString(DatabaseRole.App));
                o.Schema = TestDatabase.Schema;
            })
            .BuildServiceProvider();
}
