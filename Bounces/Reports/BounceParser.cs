using MimeKit;
using Notifications.Shared.Bounces;

namespace Notifications.Bounces.Reports;

/// <summary>
/// Reads an inbound message (MimeKit) into a <see cref="BounceReport"/>: a DSN (RFC 3464, <c>multipart/report;
/// report-type=delivery-status</c>) gives an outcome per recipient from its <c>message/delivery-status</c> part; an ARF
/// report (RFC 5965, <c>report-type=feedback-report</c>) a complaint. The notification comes from the envelope recipient
/// (the signed return path the mail was sent from, <see cref="ReturnPath"/>); for a complaint, which providers send to the
/// address registered for their feedback loop, also from the returned message's <c>Return-Path</c> or the report's
/// <c>Original-Mail-From</c>. Anything else is dropped with a reason (<see cref="DropReasons"/>).
/// </summary>
internal sealed class BounceParser(ReturnPath returnPath)
{
    private static readonly ParserOptions Options = new() { AllowAddressesWithoutDomain = true };

    /// <summary>Reads <paramref name="message"/>, received for the envelope <paramref name="recipients"/>.</summary>
    public BounceReport Read(Stream message, IReadOnlyList<string> recipients)
    {
        MimeMessage mime;
        byte[] bytes;
        try
        {
            bytes = ReadAll(message);
            mime = MimeMessage.Load(Options, new MemoryStream(bytes, writable: false));
        }
        catch (FormatException)
        {
            return BounceReport.Dropped(DropReasons.Unreadable);
        }

        return Classify(mime, bytes, recipients);
    }

    private BounceReport Classify(MimeMessage mime, byte[] bytes, IReadOnlyList<string> recipients)
    {
        if (mime.Body is not MultipartReport report)
        {
            return BounceReport.Dropped(AutoReplies.IsAutoReply(mime) ? DropReasons.AutoReply : DropReasons.NotAReport);
        }

        if (MimeTruncation.IsTruncated(report, bytes))
        {
            return BounceReport.Dropped(DropReasons.Truncated, NotificationOf(recipients));
        }

        if (report.ReportType?.Equals("feedback-report", StringComparison.OrdinalIgnoreCase) == true)
        {
            return Complaint(report, recipients);
        }

        if (report.ReportType?.Equals("delivery-status", StringComparison.OrdinalIgnoreCase) != true)
        {
            return BounceReport.Dropped(DropReasons.NotAReport);
        }

        if (report.OfType<MessageDeliveryStatus>().FirstOrDefault() is not { } status)
        {
            return BounceReport.Dropped(AutoReplies.IsAutoReply(mime) ? DropReasons.AutoReply : DropReasons.NoDeliveryStatus, NotificationOf(recipients));
        }

        return WithNotification(NotificationOf(recipients), DeliveryStatusFields.Outcomes(status));
    }

    private BounceReport Complaint(MultipartReport report, IReadOnlyList<string> recipients)
    {
        if (report.OfType<MessageFeedbackReport>().FirstOrDefault() is not { } feedback)
        {
            return BounceReport.Dropped(DropReasons.NoDeliveryStatus, NotificationOf(recipients));
        }

        var returned = report.OfType<MessagePart>().FirstOrDefault()?.Message;
        long? id = NotificationOf(recipients)
            ?? NotificationOf([returned?.Headers[HeaderId.ReturnPath], FeedbackReportFields.OriginalMailFrom(feedback)]);
        return WithNotification(id, FeedbackReportFields.Outcomes(feedback, returned));
    }

    private static BounceReport WithNotification(long? id, IReadOnlyList<RecipientOutcome> outcomes) =>
        id is null ? BounceReport.Dropped(DropReasons.UnknownNotification)
        : outcomes.Count == 0 ? BounceReport.Dropped(DropReasons.NoFailure, id)
        : new BounceReport(id, outcomes, null);

    private long? NotificationOf(IEnumerable<string?> addresses)
    {
        foreach (string? address in addresses)
        {
            if (returnPath.TryRead(address, out long id))
            {
                return id;
            }
        }

        return null;
    }

    private static byte[] ReadAll(Stream message)
    {
        if (message is MemoryStream memory && memory.TryGetBuffer(out var buffer) && buffer.Offset == 0 && buffer.Count == buffer.Array!.Length)
        {
            return buffer.Array;
        }

        using var copy = new MemoryStream();
        message.CopyTo(copy);
        return copy.ToArray();
    }
}
