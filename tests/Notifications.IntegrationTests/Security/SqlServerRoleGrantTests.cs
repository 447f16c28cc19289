using Dapper;
using Notifications.IntegrationTests.Stores;

namespace Notifications.IntegrationTests.Security;

/// <summary>
/// db/sqlserver/repeatable/90_roles.sql on a real SQL Server (NOTIFICATIONS_TEST_SQLSERVER, or a container): every permission each
/// role holds against the allowlist of <see cref="SqlServerRoleGrants"/>, the same check as <see cref="DatabaseRoleGrantTests"/>;
/// the suite says NOT RUN where no server can be had (scripts/test), never passed.
/// </summary>
[Collection("services")]
[Trait("Category", "SqlServer")]
public sealed class SqlServerRoleGrantTests(SqlServerSchema schema) : IClassFixture<SqlServerSchema>
{
    [Fact]
    public async Task Grants_EachRole_ExactlyTheAllowlist()
    {
        await using var connection = await schema.OpenAsync();

        var rows = (await connection.QueryAsync<(string Role, string Entry)>(SqlServerRoleGrants.Sql, new { Schema = schema.Name })).AsList();

        string differences = string.Join(Environment.NewLine, SqlServerRoleGrants.Allowed.Keys
            .Select(role => SqlServerRoleGrants.Differences(role, rows.Where(r => r.Role == role).Select(r => r.Entry)))
            .Where(d => d.Length > 0));
        Assert.True(differences.Length == 0, differences);
    }

    [Fact]
    public async Task Grants_OneMoreInATransaction_ReportedBeyondTheAllowlist()
    {
        await using var connection = await schema.OpenAsync();
        await using var transaction = connection.BeginTransaction();
        await connection.ExecuteAsync($"GRANT SELECT ON [{schema.Name}].[rate_limit] TO [notifications_app]", transaction: transaction);

        var rows = (await connection.QueryAsync<(string Role, string Entry)>(SqlServerRoleGrants.Sql, new { Schema = schema.Name }, transaction)).AsList();
        transaction.Rollback();

        Assert.Contains("beyond the allowlist [object rate_limit: SELECT]",
            SqlServerRoleGrants.Differences("notifications_app", rows.Where(r => r.Role == "notifications_app").Select(r => r.Entry)), StringComparison.Ordinal);
    }
}
