using MailKit.Net.Smtp;
using MimeKit;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>
/// The private Postfix of the bounce tests does what a receiving server does: it takes a message, then fails to deliver it
/// and sends a DSN (RFC 3464) to the envelope sender, minutes later in the wild and within seconds here. The consumer's
/// envelope sender (Bounces:Domain) brings that DSN back to an address that names the notification.
/// </summary>
[Collection("services")]
public sealed class PostfixDsnTests(PostfixWithSink servers) : IClassFixture<PostfixWithSink>
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Postfix_UnknownUserAfterAcceptance_SendsA5xxDsnForThatRecipientOnlyToTheMailFrom()
    {
        string sender = NewSender();
        string gone = PostfixServer.UnknownUser("dsn-" + Guid.NewGuid().ToString("N")[..8]);

        // Both accepted at RCPT TO (SendAsync would throw otherwise): the bounce comes after the transaction.
        await SendAsync(sender, gone, PostfixServer.Delivered);

        HeaderList failed = await DeliveryReports.WaitForAsync(servers.Sink, servers.Postfix, sender, "failed", Patience);
        Assert.Equal($"rfc822; {gone}", failed["Final-Recipient"]);
        Assert.StartsWith("5.", failed["Status"], StringComparison.Ordinal);
        DeliveryReport report = Assert.Single(DeliveryReports.Received(servers.Sink), r => r.EnvelopeRecipient == sender);
        Assert.Single(report.Recipients);
    }

    [Fact]
    public async Task Postfix_UnreachableNextHop_SendsA4xxDelayDsnThenA5xxExpiry()
    {
        string sender = NewSender();

        await SendAsync(sender, PostfixServer.Unreachable);

        HeaderList delayed = await DeliveryReports.WaitForAsync(servers.Sink, servers.Postfix, sender, "delayed", Patience);
        Assert.StartsWith("4.", delayed["Status"], StringComparison.Ordinal);
        HeaderList failed = await DeliveryReports.WaitForAsync(servers.Sink, servers.Postfix, sender, "failed", Patience);
        Assert.Equal($"rfc822; {PostfixServer.Unreachable}", failed["Final-Recipient"]);
    }

    [Fact]
    public async Task Pipeline_BounceDomainConfigured_PostfixsDsnComesToAReturnPathThatReadsBackToTheBouncedNotification()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        string gone = PostfixServer.UnknownUser("pipeline-" + Guid.NewGuid().ToString("N")[..8]);
        long bounced = await TestDatabase.EnqueueAsync(new NewNotification(gone, "Welcome", "Hello."));
        long delivered = await TestDatabase.EnqueueAsync(new NewNotification(PostfixServer.Delivered, "Welcome", "Hello."));

        (string, string?)[] settings =
        [
            ("Smtp:Host", servers.Postfix.Host), ("Smtp:Port", servers.Postfix.Port.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            .. ReturnPathSettings.Settings,
        ];
        await using (await WorkerHost.StartConsumerAsync(broker, servers.Sink, settings))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await DeliveryReports.WaitForAsync(servers.Sink, servers.Postfix, ReturnPathSettings.Codec.For(bounced), "failed", Patience);
        }

        // What a bounce receiver has: the DSN's envelope recipient, read back to the notification without any lookup.
        DeliveryReport report = Assert.Single(DeliveryReports.Received(servers.Sink),
            r => r.EnvelopeRecipient.EndsWith("@" + PostfixWithSink.BounceDomain, StringComparison.Ordinal) && r.Recipients.Any(g => g["Final-Recipient"] == $"rfc822; {gone}"));
        Assert.True(ReturnPathSettings.Codec.TryRead(report.EnvelopeRecipient, out long notificationId));
        Assert.Equal(bounced, notificationId);
        Assert.NotEqual(delivered, notificationId);
        Assert.StartsWith("5.", Assert.Single(report.Recipients)["Status"], StringComparison.Ordinal);
        Assert.Contains($"from=<{ReturnPathSettings.Codec.For(delivered)}>", servers.Postfix.Log(), StringComparison.Ordinal);
    }

    private static string NewSender() => $"bounces+{Guid.NewGuid():N}@{PostfixWithSink.BounceDomain}";

    private async Task SendAsync(string sender, params string[] recipients)
    {
        using var message = new MimeMessage();
        message.From.Add(MailboxAddress.Parse("app@example.test"));
        message.To.AddRange(recipients.Select(MailboxAddress.Parse));
        message.Subject = "A message the server takes, then fails to deliver";
        message.Body = new TextPart("plain") { Text = "Hello." };
        using var client = new SmtpClient();
        await client.ConnectAsync(servers.Postfix.Host, servers.Postfix.Port, MailKit.Security.SecureSocketOptions.None);
        await client.SendAsync(message, MailboxAddress.Parse(sender), recipients.Select(MailboxAddress.Parse));
        await client.DisconnectAsync(quit: true);
    }
}
