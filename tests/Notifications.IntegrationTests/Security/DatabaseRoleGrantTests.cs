using Dapper;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// Every grant each database role holds in the test database against the allowlist of <see cref="DatabaseRoleGrants"/>
/// (db/postgres/repeatable/90_roles.sql): a grant beyond it fails, whichever table, column, sequence, function, schema, default
/// privilege, membership or attribute it is — where <see cref="DatabaseRoleDenialTests"/> tries a sample of denials.
/// </summary>
[Collection("services")]
public sealed class DatabaseRoleGrantTests
{
    [Fact]
    public async Task Grants_EachRole_ExactlyTheAllowlist()
    {
        await using var connection = await TestDatabase.OpenAsync();

        var held = await DatabaseRoleGrants.ReadAsync(connection);

        string differences = string.Join(Environment.NewLine, held.Select(r => DatabaseRoleGrants.Differences(r.Key, r.Value)).Where(d => d.Length > 0));
        Assert.True(differences.Length == 0, differences);
    }

    [Theory]
    [InlineData("GRANT SELECT ON notifications.rate_limit TO notifications_app", "table notifications.rate_limit: SELECT")]
    [InlineData("GRANT UPDATE (subject) ON notifications.outbox TO notifications_app", "column notifications.outbox.subject: UPDATE")]
    [InlineData("GRANT CREATE ON SCHEMA notifications TO PUBLIC", "schema notifications: CREATE")]
    [InlineData("ALTER DEFAULT PRIVILEGES IN SCHEMA notifications GRANT SELECT ON TABLES TO notifications_app", " in notifications on r: SELECT")]
    public async Task Grants_OneMoreInATransaction_ReportedBeyondTheAllowlist(string grant, string entry)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await using var transaction = await connection.BeginTransactionAsync();
        await connection.ExecuteAsync(grant, transaction: transaction);

        var held = await DatabaseRoleGrants.ReadAsync(connection, transaction);
        await transaction.RollbackAsync();

        var beyond = held[DatabaseRole.App].Except(DatabaseRoleGrants.Allowed[DatabaseRole.App]);
        Assert.Contains(beyond, e => e.EndsWith(entry, StringComparison.Ordinal));
    }
}
