using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Shared.Hosting;
using Npgsql;

namespace Notifications.UnitTests.Hosting;

/// <summary>
/// Every worker in the image logged "Cannot load library libgssapi_krb5.so.2": Npgsql 10 tries GSS session encryption
/// first by default. The workers' data source turns it off unless the connection string asks for it.
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

    private static ServiceProvider Build(string connectionString)
    {
        var configuration = new ConfigurationBuilder()
            .AddInMemoryCollection(new Dictionary<string, string?> { ["Database:ConnectionString"] = connectionString })
            .Build();
        var services = new ServiceCollection().AddSingleton<IConfiguration>(configuration);
        services.AddNotificationsDatabase();
        return services.BuildServiceProvider();
    }
}
