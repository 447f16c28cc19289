namespace Notifications.Bounces.Reports;

/// <summary>The values of <c>notification_outcome.outcome</c> (db/*/037_bounces.sql).</summary>
internal static class Outcomes
{
    /// <summary>A permanent failure: a DSN's <c>Action: failed</c> with a 5.x.x status.</summary>
    public const string Bounced = "bounced";

    /// <summary>The recipient reported the mail as spam (ARF <c>Feedback-Type: abuse</c> or <c>fraud</c>).</summary>
    public const string Complained = "complained";

    /// <summary>A transient failure: <c>Action: delayed</c>, or a 4.x.x status (a soft bounce).</summary>
    public const string Deferred = "deferred";
}
