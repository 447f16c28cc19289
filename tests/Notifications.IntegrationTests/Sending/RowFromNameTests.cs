using System.Globalization;
using MimeKit;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Pipeline;

namespace Notifications.IntegrationTests.Sending;

/// <summary>
/// A row's own From display name (issue 28, item 4: per-row From where allowed) through the real client, producer, broker
/// and consumer into smtp-sink: each mail's From header as received is ASCII (a non-ASCII name as RFC 2047 encoded-words),
/// decodes to that row's name, and keeps Smtp:From's address, the one DKIM signs and SPF authorizes; a row without one
/// keeps Smtp:From's own name.
/// </summary>
[Collection("services")]
public sealed class RowFromNameTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_RowsWithTheirOwnFromName_EachArrivesWithItsNameAndTheConfiguredAddress()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        long billing = await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "Your invoice", "Invoice 1042.") { FromName = "Acme Billing" });
        long support = await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "Your ticket", "Ticket 7.") { FromName = "Zoë Support" });
        long plain = await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "News", "Hello."));

        await using (await WorkerHost.StartConsumerAsync(broker, sink, ("Smtp:From", "Acme <notify@acme.example>")))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(3, Patience);
        }

        PipelineTests.AssertExactlyOnce([billing, support, plain], sink.CountByNotificationId());
        var received = new Dictionary<long, (string Raw, MailboxAddress Mailbox)>();
        foreach (string file in sink.MessageFiles())
        {
            var dump = SinkDump.Read(file);
            using MimeMessage message = SinkDump.LoadMessage(file);
            received[long.Parse(dump.Headers["X-Notification-Id"], CultureInfo.InvariantCulture)] = (dump.Headers["From"], Assert.Single(message.From.Mailboxes));
        }

        Assert.All(received.Values, r => Assert.True(r.Raw.All(char.IsAscii), $"From header as received is not ASCII: {r.Raw}"));
        Assert.All(received.Values, r => Assert.Equal("notify@acme.example", r.Mailbox.Address));
        Assert.Equal("Acme Billing", received[billing].Mailbox.Name);
        Assert.Equal("Zoë Support", received[support].Mailbox.Name);
        Assert.Contains("=?", received[support].Raw, StringComparison.Ordinal);
        Assert.Equal("Acme", received[plain].Mailbox.Name);
    }
}
