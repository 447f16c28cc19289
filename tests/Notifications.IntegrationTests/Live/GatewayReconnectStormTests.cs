using Dapper;
using Notifications.Gateway;
using Notifications.IntegrationTests.Infrastructure;
using static Notifications.IntegrationTests.Live.LiveWire;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// A reconnect storm (issue 30: "10,000 clients reconnecting within 10 s"; <c>scripts/bench live --storm-within</c>): every
/// client's connection dropped at once (aborted, no close frame), then all of them back. The benchmark found that each drop
/// unbound the node's queue under its subscriber and each return bound it again, on the node's one channel one change at a
/// time, and a returning connection replays only after its bind: so every return waited behind the unbinds of all who had
/// left (10,000 clients: no notification delivered for 20 s to over a minute). A subscriber back within
/// <c>Gateway:UnbindAfter</c> keeps its binding: no broker change at all; one not back by then is unbound.
/// </summary>
[Collection("services")]
public sealed class GatewayReconnectStormTests
{
    private const int Clients = 40;
    private static readonly string S = TestDatabase.Schema;

    [Fact]
    public async Task AllDroppedAtOnce_BackWithinUnbindAfter_EachGetsWhatCameMeanwhile_TheNodeNeitherUnbindsNorBindsAgain()
    {
        string key = NewKey();
        await EmptyAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key), ("Gateway:UnbindAfter", "00:05:00"));
        var presence = gateway.Get<Presence>();
        var subscribers = Enumerable.Range(1, Clients).Select(i => $"storm-{i}").ToArray();
        var first = await Task.WhenAll(subscribers.Select(s => ConnectAsync(gateway, s, key)));
        await Eventually.WaitAsync(() => Task.FromResult(presence.Connections), n => n == Clients, Patience, "every client joined");

        foreach (var socket in first)
        {
            socket.Abort();
        }

        await Eventually.WaitAsync(() => Task.FromResult(presence.Connections), n => n == 0, Patience, "the gateway saw every drop");
        for (int i = 0; i < Clients; i++)
        {
            await LiveGateway.InsertAsync(subscribers[i], 9_001 + i);
        }

        var again = await Task.WhenAll(subscribers.Select(s => ConnectAsync(gateway, s, key)));
        var received = await Task.WhenAll(again.Select(ReceiveIdAsync));

        Assert.Equal(Enumerable.Range(9_001, Clients).Select(id => id.ToString(System.Globalization.CultureInfo.InvariantCulture)), received);
        Assert.Equal((Clients, 0L), (gateway.Get<LiveRouter>().BindingChanges.Binds, gateway.Get<LiveRouter>().BindingChanges.Unbinds));
        Array.ForEach(again, s => s.Dispose());
        Array.ForEach(first, s => s.Dispose());
    }

    [Fact]
    public async Task ASubscriberNotBackWithinUnbindAfter_IsUnbound_AndBoundAgainWhenItReturns()
    {
        string key = NewKey();
        await EmptyAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var gateway = await WorkerHost.StartGatewayAsync(broker, ("Gateway:TokenKey", key), ("Gateway:UnbindAfter", "00:00:00"));
        var router = gateway.Get<LiveRouter>();
        using (var gone = await ConnectAsync(gateway, "storm-gone", key))
        {
            await Eventually.WaitAsync(() => Task.FromResult(gateway.Get<Presence>().Connections), n => n == 1, Patience, "the client joined");
            gone.Abort();
        }

        await Eventually.WaitAsync(() => Task.FromResult(router.BindingChanges), c => c.Unbinds == 1, Patience, "its subscriber unbound");
        Assert.Equal(0, gateway.Get<Presence>().Subscribers);

        await LiveGateway.InsertAsync("storm-gone", 9_100);
        using var back = await ConnectAsync(gateway, "storm-gone", key);
        Assert.Equal("9100", await ReceiveIdAsync(back));
        Assert.Equal((2L, 1L), router.BindingChanges);
    }

    private static async Task EmptyAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {S}.live_pending");
    }
}
