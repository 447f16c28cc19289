using System.Security.Cryptography;
using Dapper;
using Microsoft.Data.SqlClient;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Stores;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// db/sqlserver/repeatable/90_roles.sql on a real SQL Server (NOTIFICATIONS_TEST_SQLSERVER, or a container): what each database
/// role must not do, tried as a user in that role (a user without login, impersonated with EXECUTE AS USER), is
/// refused: 229 (permission denied on the object), 230 (on the column) or 262 (CREATE TABLE). The same list as
/// <see cref="DatabaseRoleDenialTests"/>; the suite says NOT RUN where no server can be had (scripts/test).
/// </summary>
[Collection("services")]
[Trait("Category", "SqlServer")]
public sealed class SqlServerRoleDenialTests(SqlServerSchema schema) : IClassFixture<SqlServerSchema>
{
    private static readonly int[] PermissionDenied = [229, 230, 262];

    public static TheoryData<DatabaseRole, string> Denied() => new()
    {
        { DatabaseRole.App, "SELECT recipient, body FROM [{0}].[outbox]" },
        { DatabaseRole.App, "DELETE FROM [{0}].[outbox] WHERE 1 = 0" },
        { DatabaseRole.App, "SELECT * FROM [{0}].[delivery_log]" },
        { DatabaseRole.App, "SELECT * FROM [{0}].[dead_letter]" },
        { DatabaseRole.App, "SELECT * FROM [{0}].[webhook_endpoint]" },
        { DatabaseRole.Consumer, "DELETE FROM [{0}].[outbox] WHERE 1 = 0" },
        { DatabaseRole.Consumer, "SELECT id FROM [{0}].[outbox]" },
        { DatabaseRole.Consumer, "INSERT INTO [{0}].[outbox] (recipient, subject, body) VALUES (N'a@example.com', N's', N'b')" },
        { DatabaseRole.Consumer, "SELECT * FROM [{0}].[notification_status](1)" },
        { DatabaseRole.Producer, "INSERT INTO [{0}].[delivery_log] (notification_id, status) VALUES (-1, 'sent')" },
        { DatabaseRole.Producer, "SELECT * FROM [{0}].[delivery_log]" },
        { DatabaseRole.Producer, "INSERT INTO [{0}].[dead_letter] (notification_id, reason, attempts) VALUES (-1, N'r', 1)" },
        { DatabaseRole.Producer, "INSERT INTO [{0}].[outbox] (recipient, subject, body) VALUES (N'a@example.com', N's', N'b')" },
        { DatabaseRole.Admin, "INSERT INTO [{0}].[outbox] (recipient, subject, body) VALUES (N'a@example.com', N's', N'b')" },
        { DatabaseRole.Admin, "INSERT INTO [{0}].[delivery_log] (notification_id, status) VALUES (-1, 'sent')" },
        { DatabaseRole.Admin, "UPDATE [{0}].[delivery_log] SET status = 'sent' WHERE 1 = 0" },
        { DatabaseRole.Admin, "INSERT INTO [{0}].[dead_letter] (notification_id, reason, attempts) VALUES (-1, N'r', 1)" },
        { DatabaseRole.Admin, "SELECT * FROM [{0}].[rate_limit]" },
        { DatabaseRole.App, "CREATE TABLE [{0}].[intruder] (id int)" },
        { DatabaseRole.Consumer, "CREATE TABLE [{0}].[intruder] (id int)" },
    };

    [Theory]
    [MemberData(nameof(Denied))]
    public async Task Statement_NotThisRolesCodePath_PermissionDenied(DatabaseRole role, string sql)
    {
        string user = $"nt_{role.ToString().ToLowerInvariant()}_{Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(4))}";
        await using var connection = await schema.OpenAsync();
        await connection.ExecuteAsync($"CREATE USER [{user}] WITHOUT LOGIN; ALTER ROLE [{TestRoles.RoleName(role)}] ADD MEMBER [{user}];");
        try
        {
            await using var transaction = connection.BeginTransaction();
            var e = await Assert.ThrowsAsync<SqlException>(() => connection.ExecuteAsync(
                $"EXECUTE AS USER = N'{user}'; {string.Format(System.Globalization.CultureInfo.InvariantCulture, sql, schema.Name)}; REVERT;", transaction: transaction));

            Assert.True(PermissionDenied.Contains(e.Number), $"{e.Number}: {e.Message}");
        }
        finally
        {
            SqlConnection.ClearPool(connection);
            await using var cleanup = await schema.OpenAsync();
            await cleanup.ExecuteAsync($"ALTER ROLE [{TestRoles.RoleName(role)}] DROP MEMBER [{user}]; DROP USER [{user}];");
        }
    }
}
