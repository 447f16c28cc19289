using System.Data.Common;
using Microsoft.Data.SqlClient;

namespace Notifications.Client.SqlServer;

/// <summary>
/// SqlClient has no <see cref="DbDataSource"/> of its own: this one makes a new <see cref="SqlConnection"/> per use, from
/// SqlClient's pool, so the core opens connections the same way for both providers.
/// </summary>
internal sealed class SqlServerDataSource(Func<SqlConnection> connectionFactory) : DbDataSource
{
    public override string ConnectionString
    {
        get
        {
            using var connection = connectionFactory();
            return connection.ConnectionString;
        }
    }

    protected override DbConnection CreateDbConnection() => connectionFactory();
}
