using System.Net;
using System.Net.Sockets;
using Notifications.Harness;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Receivers;
using Notifications.Shared.Contract;

namespace Notifications.IntegrationTests.Harness;

/// <summary>
/// The harness's receiver process (<c>Notifications.Harness receiver webhook|push</c>, started as scripts/bench starts it) and
/// the requests of its ceiling: every one passes the real verification, and the counts read over HTTPS are exact.
/// </summary>
public sealed class ReceiverProcessTests : IDisposable
{
    private readonly string directory = Directory.CreateTempSubdirectory("receiver-process-").FullName;

    public void Dispose() => Directory.Delete(directory, recursive: true);

    [Fact]
    public async Task Webhook_LoadWithARepeatedIdAndOneOtherSecret_CountsDistinctDuplicateAndRefused()
    {
        int port = FreePorts(1);
        string secret = WebhookRequests.NewSecret();
        await using var receiver = await ReceiverProcess.StartAsync(NotificationChannels.Webhook, port, ["--secret", secret], directory);
        using var client = receiver.CreateSenderClient();
        var load = ReceiverLoad.Webhook(port, secret);

        foreach (long n in (long[])[1, 2, 3, 2])
        {
            using var response = await client.SendAsync(load.Request(n));
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }

        using (var forged = await client.SendAsync(ReceiverLoad.Webhook(port, WebhookRequests.NewSecret()).Request(4)))
        {
            Assert.Equal(HttpStatusCode.Unauthorized, forged.StatusCode);
        }

        Assert.Equal(new ReceiptCounts(Requests: 5, Accepted: 4, Distinct: 3, Duplicates: 1, Refused: 1, Unidentified: 0), await receiver.CountsAsync());
    }

    [Fact]
    public async Task Push_LoadToBothProviders_EveryRequestAcceptedOverH2()
    {
        int port = FreePorts(2);
        using var keys = new PushTestKeys();
        PushKeyFiles.Write(keys, directory, port);
        await using var receiver = await ReceiverProcess.StartAsync(NotificationChannels.Push, port, ["--keys", directory], directory);
        using var client = receiver.CreateSenderClient();
        var load = await ReceiverLoad.PushAsync(port, keys, new BenchChannel(NotificationChannels.Push), client);

        for (long n = 1; n <= 10; n++)
        {
            using var response = await client.SendAsync(load.Request(n));
            Assert.Equal((HttpStatusCode.OK, HttpVersion.Version20), (response.StatusCode, response.Version));
        }

        Assert.Equal(new ReceiptCounts(Requests: 10, Accepted: 10, Distinct: 10, Duplicates: 0, Refused: 0, Unidentified: 0), await receiver.CountsAsync());
    }

    // A port free now with the next count - 1 free too (push takes two); another process could take one before the receiver does.
    private static int FreePorts(int count)
    {
        while (true)
        {
            using var probe = new TcpListener(IPAddress.Loopback, 0);
            probe.Start();
            int port = ((IPEndPoint)probe.LocalEndpoint).Port;
            probe.Stop();
            if (port + count < IPEndPoint.MaxPort && Enumerable.Range(port + 1, count - 1).All(IsFree))
            {
                return port;
            }
        }
    }

    private static bool IsFree(int port)
    {
        try
        {
            using var probe = new TcpListener(IPAddress.Loopback, port);
            probe.Start();
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
