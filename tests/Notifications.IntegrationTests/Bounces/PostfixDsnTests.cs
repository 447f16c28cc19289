using MailKit.Net.Smtp;
using MimeKit;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>
/// The private Postfix of the bounce tests does what a receiving server does: it takes a message, then fails to deliver it
/// and sends a DSN (RFC 3464) to the envelope sender, minutes later in the wild and within seconds here.
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
        var groups = servers.Sink.CompletedFiles().Select(f => DeliveryReports.ReportTo(f, sender)).OfType<IReadOnlyList<HeaderList>>().Single();
        Assert.DoesNotContain(groups.Skip(1), g => g["Final-Recipient"]?.Contains(PostfixServer.Delivered, StringComparison.Ordinal) == true);
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
