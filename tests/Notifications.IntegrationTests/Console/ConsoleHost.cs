using System.Net;
using System.Net.Sockets;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Logging;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.OperatorConsole;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The console as Program.cs builds it (AddConsole, MapConsole), hosted in the test process on a loopback port, against the
/// test database as the admin role's login and a test broker's topology as its admin user; both sign-ins on: the tests'
/// OpenID Connect provider (a process) and the bootstrap account (a password file of this run).
/// </summary>
internal sealed class ConsoleHost : IAsyncDisposable
{
    private readonly BrokerRoleUsers _users;
    private readonly string _passwordFile;

    private ConsoleHost(WebApplication app, OidcProviderProcess provider, TestBroker broker, BrokerRoleUsers users, string passwordFile, string password)
    {
        App = app;
        Provider = provider;
        Broker = broker;
        _users = users;
        _passwordFile = passwordFile;
        BootstrapPassword = password;
        Address = new Uri(app.Urls.Single());
    }

    public WebApplication App { get; }

    /// <summary>The broker topology the console works on (its admin user's): where tests seed dead letters.</summary>
    public TestBroker Broker { get; }

    public OidcProviderProcess Provider { get; }

    public Uri Address { get; }

    public const string BootstrapUser = "operator";

    public string BootstrapPassword { get; }

    /// <summary>Starts a console; <paramref name="more"/> adds or overrides configuration keys (e.g. <c>Console:Workers:0:Url</c>).</summary>
    public static async Task<ConsoleHost> StartAsync(IReadOnlyDictionary<string, string?>? more = null)
    {
        // The provider registers the console's callback before the console starts, so the console's port is chosen first.
        int port = FreePort();
        var provider = await OidcProviderProcess.StartAsync(new Uri($"http://127.0.0.1:{port}/signin-oidc"));
        var broker = await TestBroker.CreateAsync();
        var users = await BrokerRoleUsers.CreateAsync(broker);
        string password = Convert.ToHexStringLower(System.Security.Cryptography.RandomNumberGenerator.GetBytes(24));
        string passwordFile = Path.GetTempFileName();
        await File.WriteAllTextAsync(passwordFile, password + "\n");
        var settings = new Dictionary<string, string?>(broker.Configuration())
        {
            ["RabbitMq:Uri"] = users.Admin.ToString(),
            ["Database:ConnectionString"] = TestRoles.ConnectionString(DatabaseRole.Admin),
            ["Database:Schema"] = TestDatabase.Schema,
            ["Console:Port"] = port.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Metrics:Port"] = "0",
            ["Console:Bootstrap:PasswordFile"] = passwordFile,
            ["Console:Oidc:Authority"] = provider.Authority.ToString(),
            ["Console:Oidc:ClientId"] = OidcProviderProcess.ClientId,
            ["Console:Oidc:ClientSecret"] = provider.ClientSecret,
            ["Console:Oidc:RequireHttpsMetadata"] = "false",
        };
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions
        {
            // The console's assembly is the application: its Razor Pages are found there.
            ApplicationName = typeof(ConsoleOptions).Assembly.GetName().Name,
            ContentRootPath = AppContext.BaseDirectory,
        });
        foreach (var (key, value) in more ?? new Dictionary<string, string?>())
        {
            settings[key] = value;
        }

        builder.Configuration.AddInMemoryCollection(settings);
        builder.Logging.ClearProviders();
        builder.AddConsole();
        var app = builder.Build();
        app.MapConsole();
        await app.StartAsync();
        return new ConsoleHost(app, provider, broker, users, passwordFile, password);
    }

    public async ValueTask DisposeAsync()
    {
        await App.DisposeAsync();
        await Provider.DisposeAsync();
        await _users.DisposeAsync();
        await Broker.DisposeAsync();
        File.Delete(_passwordFile);
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
