using MailKit.Net.Smtp;
using MimeKit;
using Notifications.Shared.Contract;

namespace Notifications.Baseline;

/// <summary>
/// One sender's SMTP connection (MailKit), opened at the first send and kept open; a failed send drops it
/// and the next send opens a new one. The message is built the plain MimeKit way.
/// </summary>
internal sealed class SmtpConnection(BaselineOptions options) : IAsyncDisposable
{
    private readonly SmtpClient _client = new();

    /// <summary>The MimeMessage of a notification; throws ArgumentException or ParseException for one that cannot be addressed.</summary>
    public MimeMessage Build(NotificationMessage notification)
    {
        var message = new MimeMessage();
        message.From.Add(MailboxAddress.Parse(options.SmtpFrom));
        message.To.Add(MailboxAddress.Parse(notification.Recipient ?? throw new ArgumentException("no recipient")));
        message.Subject = notification.Subject ?? throw new ArgumentException("no subject");
        // The project's header: the sink's dump and the tests find the notification by it.
        message.Headers.Add("X-Notification-Id", notification.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        message.Body = new TextPart(notification.IsHtml ? "html" : "plain") { Text = notification.Body ?? "" };
        return message;
    }

    public async Task SendAsync(MimeMessage message, CancellationToken cancellationToken)
    {
        try
        {
            if (!_client.IsConnected)
            {
                await _client.ConnectAsync(options.SmtpHost, options.SmtpPort, options.SmtpSecurity, cancellationToken);
            }

            await _client.SendAsync(message, cancellationToken);
        }
        catch
        {
            await DropAsync();
            throw;
        }
    }

    public async ValueTask DisposeAsync()
    {
        if (_client.IsConnected)
        {
            try
            {
                await _client.DisconnectAsync(quit: true);
            }
            catch (Exception ex) when (ex is IOException or MailKit.ProtocolException or SmtpCommandException)
            {
                // Closing anyway.
            }
        }

        _client.Dispose();
    }

    private async Task DropAsync()
    {
        if (_client.IsConnected)
        {
            try
            {
                await _client.DisconnectAsync(quit: false);
            }
            catch (Exception ex) when (ex is IOException or MailKit.ProtocolException or SmtpCommandException)
            {
                // The connection is broken already.
            }
        }
    }
}
