namespace Notifications.Shared.Data;

/// <summary>The values of <c>suppression.reason</c> and <c>suppression.scope</c>.</summary>
public static class SuppressionReasons
{
    /// <summary>A 5xx reply to RCPT TO: the address does not exist. Written by the consumer, scope all.</summary>
    public const string HardBounce = "hard_bounce";

    /// <summary>A complaint (feedback loop, ARF) reported by the mailbox provider. Written by the bounce receiver, scope bulk.</summary>
    public const string Complaint = "complaint";

    /// <summary>
    /// Too many transient failures (DSNs with <c>Action: delayed</c> or a 4.x.x status) to the address within a window
    /// (<c>Bounces:SoftBounceLimit</c> in <c>Bounces:SoftBounceWindow</c>). Written by the bounce receiver, scope all.
    /// </summary>
    public const string SoftBounce = "soft_bounce";

    /// <summary>The recipient unsubscribed (RFC 8058 one-click), scope bulk.</summary>
    public const string Unsubscribed = "unsubscribed";

    /// <summary>An operator's entry (<c>scripts/admin suppression add</c>).</summary>
    public const string Manual = "manual";

    /// <summary>A push token the provider says is gone (FCM UNREGISTERED, APNs Unregistered / BadDeviceToken). Written by the consumer, scope all.</summary>
    public const string Unregistered = "unregistered";

    /// <summary>Scope: every notification to the key.</summary>
    public const string AllScope = "all";

    /// <summary>Scope: only notifications of priority bulk.</summary>
    public const string BulkScope = "bulk";

    /// <summary>Every reason the table's check constraint allows.</summary>
    public static readonly IReadOnlyList<string> All = [HardBounce, Complaint, Unsubscribed, Manual, Unregistered, SoftBounce];
}
