using Notifications.Bounces.Reports;

namespace Notifications.Bounces.Effects;

/// <summary>An outcome recorded for the first time, and the suppression reason it added or kept in force (null: none).</summary>
internal sealed record AppliedOutcome(RecipientOutcome Outcome, string? SuppressedAs);
