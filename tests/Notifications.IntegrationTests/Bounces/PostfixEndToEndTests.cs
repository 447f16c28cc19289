using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Outcomes;
using Notifications.IntegrationTests.Status;
using Notifications.IntegrationTests.Suppression;
using Notifications.IntegrationTests.Webhooks;
using Notifications.Shared.Outcomes;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>
/// The whole loop on real servers: the consumer sends through a private Postfix, which accepts a message for a user it does not
/// have, bounces it and sends its DSN to the notification's return path at the bounce receiver; the notification reads
/// bounced and the address is suppressed, <c>admin show</c> tells the bounce, and the app's endpoint (subscribed to delivered
/// and bounced) received both events, signed and in that order. The other notification, delivered, stays sent.
/// </summary>
[Collection("services")]
public sealed class PostfixEndToEndTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Pipeline_PostfixBouncesAfterAcceptance_NotificationBouncedAddressSuppressedAndTheAppToldInOrder()
    {
        await using var scene = await WebhookScene.StartAsync();
        await OutcomeEventScene.SubscribeAsync(scene, OutcomeEventTypes.Delivered, OutcomeEventTypes.Bounced);
        var broker = scene.Broker;
        await using var receiver = await WorkerHost.StartBouncesAsync(ReturnPathSettings.Settings);
        var endpoint = await BounceProbe.EndpointAsync(receiver);
        await using var postfix = await PostfixServer.StartAsync(PostfixWithSink.BounceDomain, endpoint.Address.ToString(), endpoint.Port);
        var sink = scene.Sink;
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
                await Eventually.WaitAsync(() => Task.FromResult(Events(scene, bounced)), e => e.Contains(OutcomeEventTypes.Bounced), Patience,
                    $"the app's endpoint told notification {bounced} bounced");
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
        Assert.Equal([OutcomeEventTypes.Delivered, OutcomeEventTypes.Bounced], Events(scene, bounced));
        var told = OutcomeEventScene.Accepted(scene).Single(e => e.NotificationId == bounced && e.Type == OutcomeEventTypes.Bounced);
        Assert.Equal(("email", gone), (told.Channel, told.Recipient));
        Assert.Contains("5.1.1", told.Detail, StringComparison.Ordinal);
        var (exit, shown) = await StatusProbe.ShowAsync(broker, bounced);
        Assert.Equal(0, exit);
        Assert.Contains("bounced", shown, StringComparison.Ordinal);
        Assert.Contains("5.1.1", shown, StringComparison.Ordinal);
    }

    // The event types the endpoint accepted (signature verified) for one notification, in the order they arrived.
    private static List<string> Events(WebhookScene scene, long id) =>
        [.. OutcomeEventScene.Accepted(scene).Where(e => e.NotificationId == id).Select(e => e.Type)];
}
