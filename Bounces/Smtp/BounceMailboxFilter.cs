using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Shared.Bounces;
using SmtpServer;
using SmtpServer.Mail;
using SmtpServer.Protocol;
using SmtpServer.Storage;

namespace Notifications.Bounces.Smtp;

/// <summary>
/// Refuses, before any data: a recipient outside the bounce domain (550 5.1.1: the receiver is no open relay and no
/// mailbox), and a message whose declared size (<c>MAIL FROM … SIZE=</c>, RFC 1870) is over the limit (552 5.3.4; SmtpServer refuses
/// one that grows past it in DATA).
/// </summary>
internal sealed class BounceMailboxFilter(
    IOptions<ReturnPathOptions> returnPath, IOptions<BounceReceiverOptions> options, BounceMetrics metrics, ILogger<BounceMailboxFilter> logger) : IMailboxFilter
{
    public Task<bool> CanAcceptFromAsync(ISessionContext context, IMailbox from, int size, CancellationToken cancellationToken)
    {
        // Logged and counted with every other 552 (BounceSmtpListener), whether the size was declared or exceeded in DATA.
        return size > options.Value.MaxMessageBytes ? throw new SmtpResponseException(SmtpReplies.TooLarge) : Task.FromResult(true);
    }

    public Task<bool> CanDeliverToAsync(ISessionContext context, IMailbox to, IMailbox from, CancellationToken cancellationToken)
    {
        if (string.Equals(to.Host?.TrimEnd('.'), returnPath.Value.Domain.Trim(), StringComparison.OrdinalIgnoreCase))
        {
            return Task.FromResult(true);
        }

        BounceLog.RecipientRefused(logger, to.AsAddress(), SmtpReplies.Remote(context));
        metrics.Message("refused_recipient");
        throw new SmtpResponseException(SmtpReplies.NotOurDomain);
    }
}
