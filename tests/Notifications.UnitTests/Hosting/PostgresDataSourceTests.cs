using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.UnitTests.Hosting;

/// <summary>
/// Every worker in the image logged "Cannot load library libgssapi_krb5.so.2": Npgsql 10 tries GSS session encryption
/// first by default. The workers' data source turns it off unless the connection string asks for it. It also prepares the
/// workers' statements on their second use and keeps pooled connections as they are (no reset), unless told otherwise.
/// </summary>
public sealed class PostgresDataSourceTests
{
    [Fact]
    public void AddNotificationsDatabase_PlainConnectionString_DisablesGssEncryption()
    {
        using var provider = Build("Host=postgres;Database=notifications;Username=u;Password=p");

        var settings = new NpgsqlConnectionStringBuilder(provider.GetRequiredService<NpgsqlDataSource>().ConnectionString);

        Assert.Equal(GssEncryptionMode.Disable, settings.GssEncryptionMode);
        Assert.Equal("postgres", settings.Host);
    }

    [Theory]
    [InlineData("GSS Encryption Mode=Prefer", GssEncryptionMode.Prefer)]
    [InlineData("gssencryptionmode=Require", GssEncryptionMode.Require)]
    public void AddNotificationsDatabase_GssEncryptionModeSet_KeepsIt(string setting, GssEncryptionMode expected)
    {
        using var provider = Build($"Host=postgres;Database=notifications;Username=u;Password=p;{setting}");

        var settings = new NpgsqlConnectionStringBuilder(provider.GetRequiredService<NpgsqlDataSource>().ConnectionString);

        Assert.Equal(expected, settings.GssEncryptionMode);
    }

    [Fact]
    public void AddNotificationsDatabase_PlainConnectionString_PreparesStatementsAndSkipsTheReset()
    {
        using var provider = Build("Host=postgres;Database=notifications;Username=u;Password=p");

        var settings = new NpgsqlConnectionStringBuilder(provider.GetRequiredService<NpgsqlDataSource>().ConnectionString);

        Assert.Equal(32, settings.MaxAutoPrepare);
        Assert.Equal(2, settings.AutoPrepareMinUsages);
        Assert.True(settings.NoResetOnClose);
    }

    [Fact]
    public void AddNotificationsDatabase_PreparingAndResetSet_KeepsThem()
    {
        // E.g. behind PgBouncer in transaction mode, where a prepared statement may land on another server connection.
        using var provider = Build("Host=postgres;Database=notifications;Username=u;Password=p;Max Auto Prepare=0;No Reset On Close=false");

        var settings = new NpgsqlConnectionStringBuilder(provider.GetRequiredService<NpgsqlDataSource>().ConnectionString);

        Assert.Equal(0, settings.MaxAutoPrepare);
        Assert.False(settings.NoResetOnClose);
    }

    private static ServiceProvider Build(string connectionString)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Database:ConnectionString"] = connectionString })
            .Build();
        var services = new ServiceCollection().AddSingleton<IConfiguration>(configuration);
        services.AddNotificationsDatabase("notifications-test", 7);
        return services.BuildServiceProvider();
    }
}
