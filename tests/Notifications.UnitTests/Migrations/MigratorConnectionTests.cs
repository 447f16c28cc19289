using Notifications.Admin.Migrations;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.UnitTests.Migrations;

/// <summary>
/// Every <c>notifications-admin migrate</c> in the admin image printed "Cannot load library libgssapi_krb5.so.2" (the
/// stack's `scripts/swarm up`, CI's log): Npgsql 10 tries GSS session encryption first, and the migrations ran on the
/// connection string as given. They now connect as the workers do: GSS session encryption off unless it is set.
/// </summary>
public sealed class MigratorConnectionTests
{
    [Fact]
    public void For_PostgresPlainConnectionString_GssEncryptionOff()
    {
        var migrator = Migrator.For(new DatabaseOptions { Provider = DatabaseProvider.Postgres, ConnectionString = "Host=postgres;Database=n;Username=u;Password=p", Schema = "notifications" });

        var settings = new NpgsqlConnectionStringBuilder(migrator.ConnectionString);

        Assert.Equal(GssEncryptionMode.Disable, settings.GssEncryptionMode);
        Assert.Equal("postgres", settings.Host);
        Assert.Equal("p", settings.Password);
    }

    [Fact]
    public void For_PostgresGssEncryptionModeSet_KeepsIt()
    {
        var migrator = Migrator.For(new DatabaseOptions { Provider = DatabaseProvider.Postgres, ConnectionString = "Host=postgres;Username=u;GSS Encryption Mode=Require", Schema = "notifications" });

        Assert.Equal(GssEncryptionMode.Require, new NpgsqlConnectionStringBuilder(migrator.ConnectionString).GssEncryptionMode);
    }

    [Fact]
    public void For_SqlServer_ConnectionStringAsGiven()
    {
        const string ConnectionString = "Server=sql;Database=n;User Id=u;Password=p;Encrypt=True";

        var migrator = Migrator.For(new DatabaseOptions { Provider = DatabaseProvider.SqlServer, ConnectionString = ConnectionString, Schema = "notifications" });

        Assert.Equal(ConnectionString, migrator.ConnectionString);
    }
}
