using System.Text.Json;
using Notifications.Harness;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Harness;

/// <summary>The harness's webhook and push rows: valid under the contract's rules, with what the receivers count them by.</summary>
public sealed class BenchChannelTests
{
    [Fact]
    public void Row_Webhook_ValidWebhookNotificationNamingTheEndpoint()
    {
        var channel = new BenchChannel(NotificationChannels.Webhook, Endpoint: "bench-0123456789ab");

        foreach (long n in (long[])[1, 2, 999_999, 1_000_000])
        {
            var message = Message(channel, n);
            Assert.Null(NotificationValidator.Validate(message));
            Assert.Equal(("bench-0123456789ab", BenchChannel.EventType, (string?)null), (message.Recipient, message.Subject, message.Body));
            using var data = JsonDocument.Parse(message.Data!);
            Assert.Equal(BenchDatabase.Row(n).Subject, data.RootElement.GetProperty("subject").GetString());
        }
    }

    [Fact]
    public void Row_PushBoth_ValidAlternatingFcmAndApnsWithTheRowNumberAsNotificationId()
    {
        var channel = new BenchChannel(NotificationChannels.Push);

        var providers = new List<string>();
        foreach (long n in (long[])[1, 2, 3, 4, 1_000_000])
        {
            var message = Message(channel, n);
            Assert.Null(NotificationValidator.Validate(message));
            Assert.True(PushRules.TryParseRecipient(message.Recipient, out string provider, out _, out _));
            providers.Add(provider);
            using var data = JsonDocument.Parse(message.Data!);
            Assert.Equal(n.ToString(System.Globalization.CultureInfo.InvariantCulture), data.RootElement.GetProperty("notification_id").GetString());
        }

        Assert.Equal(["fcm", "apns", "fcm", "apns", "apns"], providers);
    }

    [Theory]
    [InlineData("fcm")]
    [InlineData("apns")]
    public void Row_PushOneProvider_EveryRowToThatProvider(string provider)
    {
        var channel = new BenchChannel(NotificationChannels.Push, PushProviders: provider);

        Assert.All(Enumerable.Range(1, 6), n => Assert.StartsWith(provider + ":", channel.Row(n).Recipient, StringComparison.Ordinal));
    }

    [Fact]
    public void Row_WebhookWithoutEndpoint_Throws()
    {
        Assert.Throws<InvalidOperationException>(() => new BenchChannel(NotificationChannels.Webhook).Row(1));
    }

    // As the producer makes it from the claimed row.
    private static NotificationMessage Message(BenchChannel channel, long n)
    {
        var (recipient, subject, body, data) = channel.Row(n);
        return new OutboxRow { Id = n, Recipient = recipient, Subject = subject, Body = body, Data = data, Channel = channel.Name, CreatedAt = DateTimeOffset.UtcNow }
            .ToMessage();
    }
}
