using SmtpServer;
using SmtpServer.Protocol;

namespace Notifications.Bounces.Smtp;

/// <summary>The receiver's own SMTP replies (with RFC 3463 enhanced codes), and who the session's peer is.</summary>
internal static class SmtpReplies
{
    public static readonly SmtpResponse NotOurDomain = new(SmtpReplyCode.MailboxUnavailable, "5.1.1 No such mailbox: this server takes mail for the bounce domain only");

    public static readonly SmtpResponse TooLarge = new(SmtpReplyCode.SizeLimitExceeded, "5.3.4 Message too big for a bounce report");

    public static readonly SmtpResponse Accepted = new(SmtpReplyCode.Ok, "2.6.0 Report received");

    public static readonly SmtpResponse NotRecorded = new(SmtpReplyCode.Aborted, "4.3.0 Report not recorded, try again later");

    /// <summary>The peer's address and port, for log lines.</summary>
    public static string? Remote(ISessionContext context) =>
        context.Properties.TryGetValue("EndpointListener:RemoteEndPoint", out object? endpoint) ? endpoint?.ToString() : null;
}
