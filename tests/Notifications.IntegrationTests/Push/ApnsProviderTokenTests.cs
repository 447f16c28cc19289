using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Push;

/// <summary>
/// One APNs provider token per key, shared by every handler (issue 27, item 15): the first handlers of a consumer used to race
/// to sign, 11 distinct tokens within milliseconds, and Apple answers a token changed on a connection within 20 minutes with
/// 429 TooManyProviderTokenUpdates (the push server checks it as Apple does).
/// </summary>
[Collection("services")]
public sealed class ApnsProviderTokenTests
{
    private const int Rows = 96;

    [Fact]
    public async Task Apns_ManyHandlersSendingAtStart_OneProviderTokenNoTooManyProviderTokenUpdates()
    {
        await using var world = await PushWorld.StartAsync();
        for (int i = 0; i < Rows; i++)
        {
            await world.InsertAsync(PushWorld.Recipient("apns", PushWorld.NewApnsToken()));
        }

        // Single messages, so that every handler has one to send the moment the consumer starts.
        await using (await world.StartConsumerAsync(more: ("Consumer:Handlers", "48")))
        await using (await WorkerHost.StartProducerAsync(world.Broker, ("Producer:EnvelopeSize", "1")))
        {
            await Eventually.WaitAsync(() => Task.FromResult(world.Server.Log.Requests),
                requests => requests.Count(r => r.Verdict.Accepted) == Rows || requests.Any(r => r.Verdict.Status == 429),
                TimeSpan.FromMinutes(2), "every row accepted, or a token refused");
        }

        var requests = world.Server.Log.Requests.Where(r => r.Provider == "apns").ToList();
        int tokens = requests.Select(r => r.Headers["authorization"]).Distinct(StringComparer.Ordinal).Count();
        int refused = requests.Count(r => r.Verdict.Reason == "TooManyProviderTokenUpdates");
        Assert.True((tokens, refused) == (1, 0), $"{tokens} distinct provider tokens; {refused} requests refused TooManyProviderTokenUpdates");
        Assert.Equal(Rows, requests.Count(r => r.Verdict.Accepted));
    }
}
