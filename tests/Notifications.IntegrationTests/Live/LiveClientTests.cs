using System.Collections.Concurrent;
using Notifications.Client.Live;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Live;

/// <summary>
/// Notifications.Client.Live's <see cref="LiveClient"/> against the real gateway: it receives a subscriber's pending
/// notifications and its acks delete their rows; it rides out a gateway restart with a fresh token and gets what stayed
/// unacked and what came meanwhile, each id once (an ack made while disconnected reaches the gateway on the replay); an id
/// the app acked from a push copy is not shown; a refused token is reported with the gateway's reason and retried, backed off.
/// </summary>
[Collection("services")]
public sealed class LiveClientTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Fact]
    public async Task ReadAll_PendingInOrder_AckDeletesTheRow()
    {
        await using var gateway = await LiveGateway.StartAsync();
        await LiveGateway.InsertAsync("ana", 103, 101, 102);
        await LiveGateway.InsertAsync("bo", 201);
        await using var client = new LiveClient(Options(gateway, "ana"));
        using var stop = new CancellationTokenSource(Patience * 2);
        var received = new List<LiveNotification>();

        await foreach (var notification in client.ReadAllAsync(stop.Token))
        {
            received.Add(notification);
            await client.AckAsync(notification.Id, stop.Token);
            if (received.Count == 3)
            {
                break;
            }
        }

        Assert.Equal(["101", "102", "103"], received.Select(n => n.Id));
        Assert.Equal(("Subject 102", "Body 102", "102"), (received[1].Subject, received[1].Body, received[1].Data!.Value.GetProperty("n").GetString()));
        await Eventually.WaitAsync(() => LiveGateway.PendingAsync("ana"), p => p.Count == 0, Patience, "Ana's acks recorded");
        Assert.Equal([201L], await LiveGateway.PendingAsync("bo"));
    }

    [Fact]
    public async Task AutoAck_AckedOnceTheLoopBodyFinished()
    {
        await using var gateway = await LiveGateway.StartAsync();
        await LiveGateway.InsertAsync("ana", 701, 702);
        await using var client = new LiveClient(new LiveClientOptions
        {
            Uri = gateway.LiveUri,
            TokenProvider = _ => ValueTask.FromResult(LiveTokens.Mint(gateway.Key, "ana", TimeSpan.FromMinutes(5))),
            AutoAck = true,
        });
        using var stop = new CancellationTokenSource(Patience * 2);
        await using var reader = client.ReadAllAsync(stop.Token).GetAsyncEnumerator(stop.Token);

        Assert.Equal("701", await NextAsync(reader));
        Assert.Equal([701L, 702L], await LiveGateway.PendingAsync("ana"));   // still in the loop body: not acked
        Assert.Equal("702", await NextAsync(reader));
        await Eventually.WaitAsync(() => LiveGateway.PendingAsync("ana"), p => p.SequenceEqual([702L]), Patience, "701 acked when 702 was asked for");
    }

    [Fact]
    public async Task GatewayRestart_ReconnectsWithAFreshToken_GetsTheUnackedOnceAndWhatCameMeanwhile()
    {
        await using var gateway = await LiveGateway.StartAsync();
        await LiveGateway.InsertAsync("ana", 401, 402);
        int tokens = 0;
        var options = Options(gateway, "ana", () => Interlocked.Increment(ref tokens));
        await using var client = new LiveClient(options);
        var states = new ConcurrentQueue<LiveClientState>();
        client.StateChanged += (_, e) => states.Enqueue(e.State);
        using var stop = new CancellationTokenSource(Patience * 3);
        await using var reader = client.ReadAllAsync(stop.Token).GetAsyncEnumerator(stop.Token);

        Assert.Equal("401", await NextAsync(reader));
        Assert.Equal("402", await NextAsync(reader));
        await client.AckAsync("401", stop.Token);
        await Eventually.WaitAsync(() => LiveGateway.PendingAsync("ana"), p => p.SequenceEqual([402L]), Patience, "401 acked");

        await gateway.StopAsync();
        await Eventually.WaitAsync(() => Task.FromResult(states.Count(s => s == LiveClientState.Disconnected)), n => n > 0, Patience, "the client saw the drop");
        await LiveGateway.InsertAsync("ana", 403);
        await client.AckAsync("402", stop.Token);   // while disconnected: recorded, sent when the gateway replays 402
        await gateway.RestartAsync();

        // The gateway replays 402 (acked while away) before 403, in id order: had the client shown it again, it would come first.
        Assert.Equal("403", await NextAsync(reader));
        await client.AckAsync("403", stop.Token);
        await Eventually.WaitAsync(() => LiveGateway.PendingAsync("ana"), p => p.Count == 0, Patience, "402 acked on the replay, 403 acked");
        Assert.True(tokens >= 2, $"a fresh token per connect: {tokens} asked for");
        Assert.Equal(2, states.Count(s => s == LiveClientState.Connected));
    }

    [Fact]
    public async Task AckOfAPushCopy_LiveCopyNotShown_ItsRowAcked()
    {
        await using var gateway = await LiveGateway.StartAsync();
        await LiveGateway.InsertAsync("ana", 501, 502);
        await using var client = new LiveClient(Options(gateway, "ana"));
        using var stop = new CancellationTokenSource(Patience * 2);
        await client.AckAsync("501", stop.Token);   // the app showed 501's push copy before it connected
        await using var reader = client.ReadAllAsync(stop.Token).GetAsyncEnumerator(stop.Token);

        Assert.Equal("502", await NextAsync(reader));
        await Eventually.WaitAsync(() => LiveGateway.PendingAsync("ana"), p => p.SequenceEqual([502L]), Patience, "501 acked by the client itself");
    }

    [Fact]
    public async Task RefusedToken_ReportedWithTheReason_RetriedBackedOff_AFreshTokenConnects()
    {
        await using var gateway = await LiveGateway.StartAsync();
        await LiveGateway.InsertAsync("ana", 601);
        string otherKey = Convert.ToBase64String(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));
        int asked = 0;
        var options = new LiveClientOptions
        {
            Uri = gateway.LiveUri,
            // The first two tokens are signed with a key the gateway does not trust, then the app's backend gets it right.
            TokenProvider = _ => ValueTask.FromResult(LiveTokens.Mint(Interlocked.Increment(ref asked) <= 2 ? otherKey : gateway.Key, "ana", TimeSpan.FromMinutes(5))),
            MinReconnectDelay = TimeSpan.FromMilliseconds(200),
            MaxReconnectDelay = TimeSpan.FromSeconds(2),
        };
        await using var client = new LiveClient(options);
        var refusals = new ConcurrentQueue<LiveStateChangedEventArgs>();
        client.StateChanged += (_, e) =>
        {
            if (e.State == LiveClientState.Refused)
            {
                refusals.Enqueue(e);
            }
        };
        using var stop = new CancellationTokenSource(Patience * 2);
        await using var reader = client.ReadAllAsync(stop.Token).GetAsyncEnumerator(stop.Token);

        Assert.Equal("601", await NextAsync(reader));
        Assert.Equal([1, 2], refusals.Select(r => r.Attempt));
        Assert.All(refusals, r => Assert.Equal("the token's signature is not valid", Assert.IsType<LiveTokenRefusedException>(r.Error).Reason));
        Assert.InRange(refusals.First().RetryIn!.Value, TimeSpan.Zero, TimeSpan.FromMilliseconds(200));
        Assert.InRange(refusals.Last().RetryIn!.Value, TimeSpan.Zero, TimeSpan.FromMilliseconds(400));
        Assert.Equal(3, asked);
    }

    private static LiveClientOptions Options(LiveGateway gateway, string subscriber, Action? asked = null) => new()
    {
        Uri = gateway.LiveUri,
        TokenProvider = _ =>
        {
            asked?.Invoke();
            return ValueTask.FromResult(LiveTokens.Mint(gateway.Key, subscriber, TimeSpan.FromMinutes(5)));
        },
        MinReconnectDelay = TimeSpan.FromMilliseconds(100),
        MaxReconnectDelay = TimeSpan.FromSeconds(1),
    };

    private static async Task<string> NextAsync(IAsyncEnumerator<LiveNotification> reader)
    {
        Assert.True(await reader.MoveNextAsync().AsTask().WaitAsync(Patience), "the enumeration ended");
        return reader.Current.Id;
    }
}
