using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Suppression;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>
/// The whole loop on real servers: the consumer sends through a private Postfix, which accepts a message for a user it does not
/// have, bounces it and sends its DSN to the notification's return path at the bounce receiver; the notification reads
/// bounced and the address is suppressed. The other notification, delivered, stays sent.
/// </summary>
[Collection("services")]
public sealed class PostfixEndToEndTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Pipeline_PostfixBouncesAfterAcceptance_NotificationBouncedAndAddressSuppressed()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var receiver = await WorkerHost.StartBouncesAsync(ReturnPathSettings.Settings);
        var endpoint = await BounceProbe.EndpointAsync(receiver);
        await using var postfix = await PostfixServer.StartAsync(PostfixWithSink.BounceDomain, endpoint.Address.ToString(), endpoint.Port);
        await using var sink = await SmtpSink.StartAsync();
        string gone = PostfixServer.UnknownUser("e2e-" + Guid.NewGuid().ToString("N")[..8]);
        long bounced = await TestDatabase.EnqueueAsync(new NewNotification(gone, "Welcome", "Hello."));
        long delivered = await TestDatabase.EnqueueAsync(new NewNotification(PostfixServer.Delivered, "Welcome", "Hello."));

        (string, string?)[] settings =
        [
            ("Smtp:Host", postfix.Host), ("Smtp:Port", postfix.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            .. ReturnPathSettings.Settings,
        ];
        await using (await WorkerHost.StartConsumerAsync(broker, sink, settings))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            try
            {
                await Eventually.WaitAsync(() => BounceProbe.StatusAsync(bounced), s => s.State == "bounced", Patience, $"notification {bounced} bounced");
            }
            catch (TimeoutException e)
            {
                throw new TimeoutException($"{e.Message}\nPostfix's log:\n{postfix.Log()}", e);
            }
        }

        Assert.Equal([("bounced", gone, "5.1.1")], await BounceProbe.OutcomesAsync(bounced));
        var row = Assert.Single(await SuppressionProbe.RowsAsync());
        Assert.Equal((gone, "hard_bounce"), (row.Address, row.Reason));
        Assert.Equal("sent", (await BounceProbe.StatusAsync(delivered)).State);
    }
}
