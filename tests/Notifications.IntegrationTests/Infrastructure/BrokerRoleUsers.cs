using System.Security.Cryptography;
using Notifications.Shared.Messaging;

namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// A producer, a consumer, an admin and a gateway broker user for one <see cref="TestBroker"/>'s names, with the permissions
/// <see cref="BrokerPermissions"/> gives (what scripts/setup and the stacks create for the default names); unique
/// names, random passwords, deleted afterwards.
/// </summary>
internal sealed class BrokerRoleUsers : IAsyncDisposable
{
    private readonly BrokerManagement _management;
    private readonly string[] _users;

    private BrokerRoleUsers(BrokerManagement management, string prefix, Uri producer, Uri consumer, Uri admin, Uri gateway)
    {
        _management = management;
        _users = [$"{prefix}-producer", $"{prefix}-consumer", $"{prefix}-admin", $"{prefix}-gateway"];
        Producer = producer;
        Consumer = consumer;
        Admin = admin;
        Gateway = gateway;
    }

    /// <summary>The producer user's AMQP URI (same host and vhost as the broker's).</summary>
    public Uri Producer { get; }

    public Uri Consumer { get; }

    public Uri Admin { get; }

    public Uri Gateway { get; }

    public static async Task<BrokerRoleUsers> CreateAsync(TestBroker broker)
    {
        var management = BrokerManagement.Create();
        string prefix = $"test-{Guid.NewGuid():N}"[..17];
        string vhost = BrokerManagement.VhostOf(broker.Options.Uri);
        var options = broker.Options;
        var uris = new List<Uri>();
        foreach (var (role, permissions) in ((string, BrokerPermissions)[])[
                     ("producer", BrokerPermissions.Producer(options)), ("consumer", BrokerPermissions.Consumer(options)), ("admin", BrokerPermissions.Admin(options)),
                     ("gateway", BrokerPermissions.Gateway(options))])
        {
            string user = $"{prefix}-{role}";
            string password = Convert.ToHexString(RandomNumberGenerator.GetBytes(16));
            await management.CreateUserAsync(user, password, vhost, permissions);
            uris.Add(new UriBuilder(options.Uri) { UserName = user, Password = password }.Uri);
        }

        return new BrokerRoleUsers(management, prefix, uris[0], uris[1], uris[2], uris[3]);
    }

    public async ValueTask DisposeAsync()
    {
        foreach (string user in _users)
        {
            await _management.DeleteUserAsync(user);
        }

        _management.Dispose();
    }
}
