using Dapper;
using Microsoft.Data.SqlClient;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>Applies db/sqlserver/*.sql to a schema, batch by batch, as <c>sqlcmd -v Schema=...</c> would.</summary>
internal static class SqlServerMigrator
{
    public static async Task ApplyAsync(SqlConnection connection, string schema)
    {
        var batches = SqlcmdScript.Files(RepositoryLayout.File("db", "sqlserver"))
            .SelectMany(file => SqlcmdScript.Batches(System.IO.File.ReadAllText(file), schema));
        foreach (string batch in batches)
        {
            await connection.ExecuteAsync(batch);
        }
    }
}
