using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.UnitTests.Hosting;

/// <summary>
/// A worker's pool is its bound, not the drivers' 100 a process (a whole PostgreSQL server's default max_connections):
/// Database:MaxPoolSize, else the worker's own bound; a connection string that sets its pool's size or name keeps them.
/// </summary>
public sealed class DatabasePoolTests
{
    private const string Postgres = "Host=postgres;Database=notifications;Username=u;Password=\"p;'w\"";
    private const string SqlServer = "Server=sqlserver,1433;Database=notifications;User ID=u;Password=\"p;'w\";Encrypt=Strict";

    [Fact]
    public void AddNotificationsDatabase_PostgresWithoutPoolSize_TheWorkersBoundAndName()
    {
        var settings = new NpgsqlConnectionStringBuilder(Options(Postgres).ConnectionString);

        Assert.Equal((7, "notifications-test", "p;'w"), (settings.MaxPoolSize, settings.ApplicationName, settings.Password));
    }

    [Fact]
    public void AddNotificationsDatabase_SqlServerWithoutPoolSize_TheWorkersBoundAndName()
    {
        var settings = new SqlConnectionStringBuilder(Options(SqlServer, ("Database:Provider", "SqlServer")).ConnectionString);

        Assert.Equal((7, "notifications-test", "p;'w"), (settings.MaxPoolSize, settings.ApplicationName, settings.Password));
    }

    [Fact]
    public void AddNotificationsDatabase_MaxPoolSizeOption_WinsOverTheWorkersBound()
    {
        var settings = new NpgsqlConnectionStringBuilder(Options(Postgres, ("Database:MaxPoolSize", "3")).ConnectionString);

        Assert.Equal(3, settings.MaxPoolSize);
    }

    [Theory]
    [InlineData("Maximum Pool Size=40;Application Name=billing")]
    [InlineData("maximum pool size=40;ApplicationName=billing")]
    [InlineData("MaxPoolSize=40;Application Name=billing;")]
    public void AddNotificationsDatabase_PostgresStringSetsPoolSizeAndName_KeepsThem(string setting)
    {
        var settings = new NpgsqlConnectionStringBuilder(Options($"{Postgres};{setting}", ("Database:MaxPoolSize", "3")).ConnectionString);

        Assert.Equal((40, "billing"), (settings.MaxPoolSize, settings.ApplicationName));
    }

    [Fact]
    public void AddNotificationsDatabase_SqlServerStringSetsPoolSizeAndName_KeepsThem()
    {
        var settings = new SqlConnectionStringBuilder(Options($"{SqlServer};Max Pool Size=40;App=billing", ("Database:Provider", "SqlServer")).ConnectionString);

        Assert.Equal((40, "billing"), (settings.MaxPoolSize, settings.ApplicationName));
    }

    [Fact]
    public void AddNotificationsDatabase_PostgresWithoutPoolSize_TheDataSourcesPoolIsTheBound()
    {
        using var provider = Build(Postgres);

        var settings = new NpgsqlConnectionStringBuilder(provider.GetRequiredService<NpgsqlDataSource>().ConnectionString);

        Assert.Equal(7, settings.MaxPoolSize);
    }

    [Fact]
    public void AddNotificationsDatabase_NoConnectionString_StillFailsValidationNamingTheKey()
    {
        using var provider = Build("");

        var failure = Assert.Throws<OptionsValidationException>(() => provider.GetRequiredService<IOptions<DatabaseOptions>>().Value);

        Assert.Contains("ConnectionString", failure.Message, StringComparison.Ordinal);
    }

    private static DatabaseOptions Options(string connectionString, params (string Key, string Value)[] settings)
    {
        using var provider = Build(connectionString, settings);
        return provider.GetRequiredService<IOptions<DatabaseOptions>>().Value;
    }

    private static ServiceProvider Build(string connectionString, params (string Key, string Value)[] settings)
    {
        var values = new Dictionary<string, string?> { ["Database:ConnectionString"] = connectionString };
        foreach (var (key, value) in settings)
        {
            values[key] = value;
        }

        var services = new ServiceCollection().AddSingleton<IConfiguration>(new ConfigurationBuilder().AddInMemoryCollection(values).Build());
        services.AddNotificationsDatabase("notifications-test", 7);
        return services.BuildServiceProvider();
    }
}
