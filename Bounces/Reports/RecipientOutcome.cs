namespace Notifications.Bounces.Reports;

/// <summary>What a report says of one recipient of a notification.</summary>
/// <param name="Outcome">One of <see cref="Outcomes"/>.</param>
/// <param name="Recipient">The recipient's address, as a suppression key (lower-case).</param>
/// <param name="Status">The enhanced status code (RFC 3463, <c>5.1.1</c>), or the feedback type of a complaint (<c>abuse</c>).</param>
/// <param name="Diagnostic">The remote server's words (<c>550 5.1.1 user unknown</c>), or null.</param>
internal sealed record RecipientOutcome(string Outcome, string Recipient, string? Status, string? Diagnostic);
