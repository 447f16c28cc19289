using System.Text.Json.Nodes;
using Notifications.Client;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Client;

/// <summary>Webhook and push notifications as the client package builds and checks them, before any database.</summary>
public sealed class ChannelNotificationsTests
{
    private const string ApnsToken = "00fc13adff785122b4ad28809a3420982341241421348097878e577c991de8f0";

    [Fact]
    public void Webhook_ValidParts_ChannelWebhookWithTheDataAsJson()
    {
        var webhook = NewNotification.Webhook("billing-eu", "invoice.paid", new JsonObject { ["id"] = 7 });

        Assert.Equal(("webhook", "billing-eu", "invoice.paid", """{"id":7}"""), (webhook.Channel, webhook.Recipient, webhook.Subject, webhook.Data));
    }

    [Theory]
    [InlineData("Billing", "invoice.paid", "{}", "endpoint name")]
    [InlineData("", "invoice.paid", "{}", "endpoint name")]
    [InlineData("billing", "invoice paid", "{}", "event type")]
    [InlineData("billing", "invoice.paid", "{oops", "not JSON")]
    public void Webhook_BadPart_ThrowsNamingIt(string endpoint, string type, string data, string expected)
    {
        var refused = Assert.Throws<ArgumentException>(() => NewNotification.Webhook(endpoint, type, data));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    // .NET's '$' also matches before a final "\n": each pattern ends in \z, so a trailing newline is refused.
    [Theory]
    [InlineData("billing\n", "invoice.paid", "endpoint name")]
    [InlineData("billing", "invoice.paid\n", "event type")]
    public void Webhook_TrailingNewline_Throws(string endpoint, string type, string expected) =>
        Assert.Contains(expected, Assert.Throws<ArgumentException>(() => NewNotification.Webhook(endpoint, type, "{}")).Message, StringComparison.Ordinal);

    [Fact]
    public void Push_TrailingNewlineInAnFcmToken_Throws() =>
        Assert.Contains("FCM registration token", Assert.Throws<ArgumentException>(() => NewNotification.Push("fcm:abc\n", "t", "b")).Message, StringComparison.Ordinal);

    [Fact]
    public void OutboxSchemaName_TrailingNewline_Throws() =>
        Assert.Throws<ArgumentException>(() => OutboxSchemaName.Checked("notifications\n", "schema"));

    [Fact]
    public void Push_TitleTextAndData_ChannelPushWithTheDataAsAJsonObjectOfStrings()
    {
        var push = NewNotification.Push("apns:" + ApnsToken, "Shipped", "Arrives Friday", new Dictionary<string, string> { ["order"] = "42" });

        Assert.Equal(("push", "Shipped", "Arrives Friday", """{"order":"42"}"""), (push.Channel, push.Subject, push.Body, push.Data));
    }

    [Theory]
    [InlineData("apns:abc", "APNs device token")]
    [InlineData("fcm:has space", "FCM registration token")]
    [InlineData("wns:token", "push provider 'wns'")]
    [InlineData("ada@example.com", "not 'fcm:<registration token>'")]
    public void Push_BadRecipient_ThrowsNamingIt(string recipient, string expected)
    {
        var refused = Assert.Throws<ArgumentException>(() => NewNotification.Push(recipient, "t", "b"));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Push_NothingToShow_Throws() =>
        Assert.Contains("no title", Assert.Throws<ArgumentException>(() => NewNotification.Push("fcm:abc", null, null)).Message, StringComparison.Ordinal);

    [Fact]
    public void Push_OverFourKilobytes_ThrowsWithTheSize()
    {
        var refused = Assert.Throws<ArgumentException>(() => NewNotification.Push("fcm:abc", "t", new string('x', 4100)));

        Assert.Contains("4096-byte payload limit", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_PushWithAnEmailOnlyField_ReasonNamesIt()
    {
        var message = new NotificationMessage(1, "fcm:abc", "t", "b", false, DateTimeOffset.UnixEpoch, null)
        {
            Channel = NotificationChannels.Push, Cc = "x@example.com",
        };

        Assert.Equal("invalid push notification: it carries cc, which only email has", NotificationValidator.Validate(message));
    }

    [Fact]
    public void Live_ToASubscriber_ChannelLiveWithTheDataAsJson()
    {
        var live = NewNotification.Live("ana-1", "Your ride", null, new Dictionary<string, string> { ["ride"] = "r-7" });

        Assert.Equal(("live", "ana-1", "Your ride", """{"ride":"r-7"}"""), (live.Channel, live.Recipient, live.Subject, live.Data));
    }

    [Theory]
    [InlineData("ana 1", null, "invalid subscriber id")]
    [InlineData("ana-1", null, "invalid live notification: no title")]
    [InlineData("ana-1", "4100", "invalid live notification: title, text and data are")]
    public void Live_BadSubscriberOrContent_ThrowsNamingIt(string subscriber, string? textLength, string expected)
    {
        string? text = textLength is null ? null : new string('x', int.Parse(textLength, System.Globalization.CultureInfo.InvariantCulture));
        var refused = Assert.Throws<ArgumentException>(() => NewNotification.Live(subscriber, subscriber == "ana 1" ? "t" : null, text));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_LiveWithAnEmailOnlyFieldOrNonStringData_ReasonNamesIt()
    {
        var withCc = new NotificationMessage(1, "ana-1", "t", "b", false, DateTimeOffset.UnixEpoch, null) { Channel = NotificationChannels.Live, Cc = "x@example.com" };
        var withNumber = new NotificationMessage(1, "ana-1", "t", "b", false, DateTimeOffset.UnixEpoch, null) { Channel = NotificationChannels.Live, Data = """{"n":1}""" };

        Assert.Equal("invalid live notification: it carries cc, which only email has", NotificationValidator.Validate(withCc));
        Assert.Equal("invalid live data: 'n' is not a string (FCM data values are strings)", NotificationValidator.Validate(withNumber));
    }

    [Fact]
    public void Validate_UnknownChannel_ReasonListsTheKnownOnes()
    {
        var message = new NotificationMessage(1, "x", "t", "b", false, DateTimeOffset.UnixEpoch, null) { Channel = "sms" };

        Assert.Equal("unknown channel: 'sms', expected one of email, webhook, push, live", NotificationValidator.Validate(message));
    }

    [Fact]
    public void Validate_EmailWithData_Refused()
    {
        var message = new NotificationMessage(1, "a@example.com", "t", "b", false, DateTimeOffset.UnixEpoch, null) { Data = "{}" };

        Assert.StartsWith("invalid email: it carries data", NotificationValidator.Validate(message), StringComparison.Ordinal);
    }
}
