using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Logging.Abstractions;
using MimeKit;
using Notifications.Consumer.Channels.Email;
using Notifications.IntegrationTests.Infrastructure;

namespace Notifications.IntegrationTests.Sending;

/// <summary>
/// <c>Smtp:From</c> with a display name, as every sender wants it (issue 28, item 4): accepted by the options, sent by the
/// MailKit sender to a real smtp-sink, and checked there: the From header as received is ASCII (a non-ASCII name as
/// RFC 2047 encoded-words), MimeKit reads the same name and address back, and the envelope's MAIL FROM is the bare address.
/// </summary>
[Collection("services")]
public sealed class DisplayNameFromTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    [Theory]
    [InlineData("billing@acme.example", "", "billing@acme.example")]
    [InlineData("Acme Billing <billing@acme.example>", "Acme Billing", "billing@acme.example")]
    [InlineData("\"Acme, Inc. Billing\" <billing@acme.example>", "Acme, Inc. Billing", "billing@acme.example")]
    [InlineData("Zoë Café <billing@acme.example>", "Zoë Café", "billing@acme.example")]
    [InlineData("株式会社アクメ <billing@acme.example>", "株式会社アクメ", "billing@acme.example")]
    [InlineData("\"Zola, Émile\" <billing@acme.example>", "Zola, Émile", "billing@acme.example")]
    [InlineData("Acme 📄 Billing <billing@acme.example>", "Acme 📄 Billing", "billing@acme.example")]
    [InlineData("  Acme Billing   <billing@acme.example>  ", "Acme Billing", "billing@acme.example")]
    [InlineData("<billing@acme.example>", "", "billing@acme.example")]
    [InlineData("O'Brien & Sons <billing@acme.example>", "O'Brien & Sons", "billing@acme.example")]
    [InlineData("Bücher Versand <versand@bücher.example>", "Bücher Versand", "versand@xn--bcher-kva.example")]
    [InlineData(
        "Acme Corporation International Billing and Accounts Receivable Department <billing@acme.example>",
        "Acme Corporation International Billing and Accounts Receivable Department", "billing@acme.example")]
    public async Task SendAsync_FromWithDisplayName_HeaderAsReceivedCarriesNameAndEnvelopeTheBareAddress(
        string configured, string name, string envelope)
    {
        var options = new SmtpOptions { Host = "127.0.0.1", Security = SmtpSecurity.None, From = configured };
        await using SmtpSink sink = await SmtpSink.StartAsync();
        options.Port = sink.Port;

        var invalid = new List<ValidationResult>();
        Assert.True(Validator.TryValidateObject(options, new ValidationContext(options), invalid, validateAllProperties: true), string.Join("; ", invalid));
        await using (var sender = new SmtpEmailSender(options, NullLogger<SmtpEmailSender>.Instance))
        {
            await sender.SendAsync(new EmailMessage(7, "user@example.test", "Your invoice", "Attached.", false, DateTimeOffset.UtcNow), CancellationToken.None);
        }

        await sink.WaitForMessagesAsync(1, Patience);
        string file = Assert.Single(sink.MessageFiles());
        string rawFrom = SinkDump.Read(file).Headers["From"];
        Assert.True(rawFrom.All(char.IsAscii), $"From header as received is not ASCII: {rawFrom}");
        using MimeMessage received = SinkDump.LoadMessage(file);
        var from = Assert.Single(received.From.Mailboxes);
        Assert.Equal(name, from.Name ?? "");
        Assert.Equal(envelope, from.GetAddress(idnEncode: true));
        Assert.StartsWith($"<{envelope}>", received.Headers["X-Mail-Args"], StringComparison.Ordinal);
    }
}
