using MimeKit;
using Notifications.Shared.Data;

namespace Notifications.Bounces.Reports;

/// <summary>
/// The per-recipient fields of a <c>message/delivery-status</c> part (RFC 3464 §2.3): <c>Action</c>, <c>Status</c>,
/// <c>Final-Recipient</c> (else <c>Original-Recipient</c>), <c>Diagnostic-Code</c>. <c>failed</c> with a 5.x.x status is a
/// bounce; <c>delayed</c>, or any 4.x.x status (also <c>failed</c> 4.4.7, a server that gave up retrying), a deferral;
/// <c>delivered</c>, <c>relayed</c> and <c>expanded</c> are no failure.
/// </summary>
internal static class DeliveryStatusFields
{
    public static IReadOnlyList<RecipientOutcome> Outcomes(MessageDeliveryStatus status)
    {
        var outcomes = new List<RecipientOutcome>();
        // Group 0 holds the per-message fields; every later group one recipient. Some servers write one group only.
        foreach (var group in status.StatusGroups.Count > 1 ? status.StatusGroups.Skip(1) : status.StatusGroups)
        {
            if (Outcome(group) is { } outcome)
            {
                outcomes.Add(outcome);
            }
        }

        return outcomes;
    }

    private static RecipientOutcome? Outcome(HeaderList group)
    {
        string action = (group["Action"] ?? "").Trim().ToLowerInvariant();
        string? code = FirstWord(group["Status"]);
        string? recipient = TypedAddress(group["Final-Recipient"]) ?? TypedAddress(group["Original-Recipient"]);
        if (recipient is null)
        {
            return null;
        }

        string? outcome = action switch
        {
            "failed" when code?[0] == '5' => Reports.Outcomes.Bounced,
            "failed" when code?[0] == '4' => Reports.Outcomes.Deferred,
            "delayed" => Reports.Outcomes.Deferred,
            _ => null,
        };
        return outcome is null ? null : new RecipientOutcome(outcome, recipient, code, Diagnostic(group["Diagnostic-Code"]));
    }

    /// <summary>The address of an <c>address-type; address</c> field (<c>rfc822; user@example.com</c>), as a suppression key.</summary>
    public static string? TypedAddress(string? field)
    {
        if (field is null)
        {
            return null;
        }

        int semicolon = field.IndexOf(';', StringComparison.Ordinal);
        string address = field[(semicolon + 1)..].Trim().Trim('<', '>').Trim();
        return address.Contains('@', StringComparison.Ordinal) ? SuppressionKeys.ForRecipient(address) : null;
    }

    // "smtp; 550 5.1.1 <x@y>: Recipient address rejected" -> the text after the type; unfolded by MimeKit already.
    private static string? Diagnostic(string? field)
    {
        if (field is null)
        {
            return null;
        }

        int semicolon = field.IndexOf(';', StringComparison.Ordinal);
        string text = string.Join(' ', field[(semicolon + 1)..].Split((char[])[' ', '\t', '\r', '\n'], StringSplitOptions.RemoveEmptyEntries));
        return text.Length == 0 ? null : text;
    }

    private static string? FirstWord(string? field) =>
        field?.Split((char[])[' ', '\t', '(', '\r', '\n'], StringSplitOptions.RemoveEmptyEntries).FirstOrDefault() is { Length: >= 5 } code
        && code[1] == '.' && code[0] is '2' or '4' or '5' ? code : null;
}
