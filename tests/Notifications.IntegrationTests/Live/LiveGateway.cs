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
    private WorkerHost? _host;
    private int _port;

    private LiveGateway(string key) => Key = key;

    public string Key { get; }

    /// <summary>The live endpoint: <c>ws://127.0.0.1:port/live</c>, the same across restarts.</summary>
    public Uri LiveUri => new UriBuilder("ws", "127.0.0.1", _port, LiveServer.Path).Uri;

    /// <summary>A gateway on a free port, over an empty <c>live_pending</c>.</summary>
    public static async Task<LiveGateway> StartAsync()
    {
        await using (var connection = await TestDatabase.OpenAsync())
        {
            await connection.ExecuteAsync($"DELETE FROM {S}.live_pending");
        }

        var gateway = new LiveGateway(Convert.ToBase64String(RandomNumberGenerator.GetBytes(32)));
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
        // The gateway does not close its live connections when it stops: Kestrel waits the host's shutdown timeout (30 s by
        // default) for them, then aborts them. 2 s here, so a restart costs the tests 2 s; the clients see a dropped connection.
        _host = await WorkerHost.StartGatewayAsync(
            ("Gateway:TokenKey", Key), ("Gateway:Port", _port.ToString(CultureInfo.InvariantCulture)), ("shutdownTimeoutSeconds", "2"));
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

    public ValueTask DisposeAsync() => new(StopAsync());
}
