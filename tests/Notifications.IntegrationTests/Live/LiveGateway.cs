using System.Globalization;
using System.Security.Cryptography;
using Dapper;
using Notifications.Gateway;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// A real gateway for the client tests, with a key of its own; stopped and started again on the same port (a restart the
/// clients ride out), and the <c>live_pending</c> rows it serves, written and read as the consumer's live channel and the
/// gateway leave them.
/// </summary>
internal sealed class LiveGateway : IAsyncDisposable
{
    private static readonly string S = TestDatabase.Schema;
    private readonly TestBroker _broker;
    private WorkerHost? _host;
    private int _port;

    private LiveGateway(string key, TestBroker broker)
    {
        Key = key;
        _broker = broker;
    }

    public string Key { get; }

    /// <summary>The live endpoint: <c>ws://127.0.0.1:port/live</c>, the same across restarts.</summary>
    public Uri LiveUri => new UriBuilder("ws", "127.0.0.1", _port, LiveServer.Path).Uri;

    /// <summary>Its operations endpoint (<c>/metrics</c>, <c>/health/*</c>, <c>/presence</c>) while it runs.</summary>
    public Uri OperationsUri => _host!.Get<Notifications.Shared.Observability.OperationsEndpoint>().Address!;

    /// <summary>A gateway on a free port, over an empty <c>live_pending</c>.</summary>
    public static async Task<LiveGateway> StartAsync()
    {
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"DELETE FROM {S}.live_pending");
        }

        var gateway = new LiveGateway(Convert.ToBase64String(RandomNumberGenerator.GetBytes(32)), await TestBroker.CreateAsync());
        await gateway.RestartAsync();
        return gateway;
    }

    /// <summary>Stops the gateway: its connections drop.</summary>
    public async Task StopAsync()
    {
        if (_host is not null)
        {
            await _host.DisposeAsync();
            _host = null;
        }
    }

    /// <summary>Starts it (again, on the port it had).</summary>
    public async Task RestartAsync()
    {
        await StopAsync();
        // Stopping, the gateway closes its live connections (1001, "the gateway is stopping: reconnect"): the clients reconnect.
        _host = await WorkerHost.StartGatewayAsync(
            _broker, ("Gateway:TokenKey", Key), ("Gateway:Port", _port.ToString(CultureInfo.InvariantCulture)));
        _port = _host.Get<LiveServer>().Address!.Port;
    }

    /// <summary>Pending notifications for <paramref name="subscriber"/>, as the consumer's live channel writes them.</summary>
    public static async Task InsertAsync(string subscriber, params long[] ids)
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync(
            $"INSERT INTO {S}.live_pending (notification_id, subscriber_id, subject, body, data) VALUES (@Id, @Subscriber, @Subject, @Body, @Data)",
            ids.Select(id => new { Id = id, Subscriber = subscriber, Subject = $"Subject {id}", Body = $"Body {id}", Data = $$"""{"n":"{{id}}"}""" }));
    }

    /// <summary>The ids still pending (not acked) for <paramref name="subscriber"/>, in order.</summary>
    public static async Task<List<long>> PendingAsync(string subscriber)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return (await connection.QueryAsync<long>(
            $"SELECT notification_id FROM {S}.live_pending WHERE subscriber_id = @Subscriber ORDER BY notification_id", new { Subscriber = subscriber })).AsList();
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        await _broker.DisposeAsync();
    }
}
