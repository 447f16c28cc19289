using MimeKit;
using Notifications.Shared.Data;

namespace Notifications.Bounces.Reports;

/// <summary>
/// The fields of an ARF <c>message/feedback-report</c> part (RFC 5965 §3.1): <c>Feedback-Type</c> (<c>abuse</c> and
/// <c>fraud</c> are complaints; <c>not-spam</c>, <c>virus</c> and <c>other</c> are not), the complaining recipient from
/// <c>Original-Rcpt-To</c> or else the returned message's <c>To</c>, and <c>Original-Mail-From</c>.
/// </summary>
internal static class FeedbackReportFields
{
    public static IReadOnlyList<RecipientOutcome> Outcomes(MessageFeedbackReport feedback, MimeMessage? returned)
    {
        var fields = feedback.Fields;
        string type = (fields["Feedback-Type"] ?? "").Trim().ToLowerInvariant();
        if (type is not ("abuse" or "fraud"))
        {
            return [];
        }

        string? recipient = Address(fields["Original-Rcpt-To"])
            ?? Address(returned?.To.Mailboxes.Select(m => m.Address).FirstOrDefault());
        return recipient is null ? [] : [new RecipientOutcome(Reports.Outcomes.Complained, recipient, type, fields["User-Agent"]?.Trim())];
    }

    /// <summary>The <c>Original-Mail-From</c> field: the envelope sender of the reported mail (our signed return path).</summary>
    public static string? OriginalMailFrom(MessageFeedbackReport feedback) => feedback.Fields["Original-Mail-From"];

    private static string? Address(string? field)
    {
        string? address = field?.Trim().Trim('<', '>').Trim();
        return address is { Length: > 0 } && address.Contains('@', StringComparison.Ordinal) ? SuppressionKeys.ForRecipient(address) : null;
    }
}
