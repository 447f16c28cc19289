using MailKit;
using MailKit.Net.Smtp;
using MimeKit;

namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// MailKit's client with two choices of ours: BDAT (RFC 3030 CHUNKING) where the server offers it, which
/// spares the dot-stuffing pass, and a message over the server's SIZE limit refused as
/// <see cref="SendFailureKind.Permanent"/> before MAIL FROM, with both numbers, rather than retried.
/// </summary>
internal sealed class NotificationSmtpClient(IProtocolLogger logger) : SmtpClient(logger)
{
    protected override bool PreferSendAsBinaryData => true;

    // MailKit measures the message here only when it needs the size (SIZE offered, or BDAT): no extra pass.
    protected override async Task<long> GetSizeAsync(FormatOptions options, MimeMessage message, CancellationToken cancellationToken)
    {
        long size = await base.GetSizeAsync(options, message, cancellationToken);
        if (MaxSize > 0 && size > MaxSize)
        {
            throw new SmtpSendException(SendFailureKind.Permanent, null,
                $"The message is {size} bytes; the server's SIZE limit is {MaxSize} bytes.");
        }

        return size;
    }
}
