using System.Buffers;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Bounces.Effects;
using Notifications.Bounces.Reports;
using SmtpServer;
using SmtpServer.Mail;
using SmtpServer.Protocol;
using SmtpServer.Storage;

namespace Notifications.Bounces.Smtp;

/// <summary>
/// What the receiver does with a message after DATA: read it (<see cref="BounceParser"/>), write its effects
/// (<see cref="BounceReportWriter"/>), and answer. A message that changes nothing is still taken (250): refusing it would
/// only make its sender bounce the bounce; the log line and the <c>result</c> tag keep why. Only a database failure
/// answers 451, so the sender tries again later.
/// </summary>
internal sealed class BounceMessageStore(
    BounceParser parser, BounceReportWriter writer, IOptions<BounceReceiverOptions> options, BounceMetrics metrics, ILogger<BounceMessageStore> logger) : IMessageStore
{
    public async Task<SmtpResponse> SaveAsync(ISessionContext context, IMessageTransaction transaction, ReadOnlySequence<byte> buffer, CancellationToken cancellationToken)
    {
        // SmtpServer refuses a message past the limit before this is called (MaxMessageSizeHandling.Strict); kept as a guard.
        if (buffer.Length > options.Value.MaxMessageBytes)
        {
            return SmtpReplies.TooLarge;
        }

        var recipients = transaction.To.Select(m => m.AsAddress()).ToList();
        var report = parser.Read(new MemoryStream(buffer.ToArray(), writable: false), recipients);
        if (report.IsDropped)
        {
            return Dropped(report.DropReason!, report.NotificationId, transaction, buffer.Length);
        }

        IReadOnlyList<AppliedOutcome>? applied;
        try
        {
            applied = await writer.WriteAsync(report, cancellationToken);
        }
        catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
        {
            BounceLog.NotRecorded(logger, report.NotificationId, ex);
            metrics.Message("not_recorded");
            return SmtpReplies.NotRecorded;
        }

        if (applied is null || applied.Count == 0)
        {
            return Dropped(applied is null ? DropReasons.NoSuchNotification : DropReasons.Duplicate, report.NotificationId, transaction, buffer.Length);
        }

        foreach (var a in applied)
        {
            BounceLog.Recorded(logger, report.NotificationId!.Value, a.Outcome.Outcome, a.Outcome.Recipient, a.Outcome.Status, a.SuppressedAs ?? "nothing");
            metrics.Outcome(a.Outcome.Outcome, a.SuppressedAs);
        }

        metrics.Message("recorded");
        return SmtpReplies.Accepted;
    }

    private SmtpResponse Dropped(string reason, long? notificationId, IMessageTransaction transaction, long bytes)
    {
        BounceLog.Dropped(logger, reason, transaction.From?.AsAddress(), string.Join(", ", transaction.To.Select(m => m.AsAddress())), bytes, notificationId);
        metrics.Message(reason);
        return SmtpReplies.Accepted;
    }
}
