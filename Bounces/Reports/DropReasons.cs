namespace Notifications.Bounces.Reports;

/// <summary>Why a message changes nothing: the <c>result</c> tag of <c>notifications.bounces.messages</c> and the log line's reason.</summary>
internal static class DropReasons
{
    /// <summary>An out-of-office or other automatic reply (RFC 3834 <c>Auto-Submitted</c>) without a delivery-status part.</summary>
    public const string AutoReply = "auto_reply";

    /// <summary>Neither a DSN (<c>multipart/report; report-type=delivery-status</c>) nor an ARF report.</summary>
    public const string NotAReport = "not_a_report";

    /// <summary>A delivery-status report without its <c>message/delivery-status</c> part.</summary>
    public const string NoDeliveryStatus = "no_delivery_status";

    /// <summary>The MIME body ends before the report's closing boundary (cut off on the way).</summary>
    public const string Truncated = "truncated";

    /// <summary>The bytes are not a MIME message MimeKit can read.</summary>
    public const string Unreadable = "unreadable";

    /// <summary>A report with no recipient failing, delayed or complaining (e.g. a success DSN: <c>Action: delivered</c>).</summary>
    public const string NoFailure = "no_failure";

    /// <summary>No signed return path names the notification (none given, another key, a wrong mac: forged or mangled).</summary>
    public const string UnknownNotification = "unknown_notification";

    /// <summary>The return path is genuine but the database has no delivery of that notification (removed by retention, or never sent).</summary>
    public const string NoSuchNotification = "no_such_notification";

    /// <summary>Every outcome of the report was recorded before (the same DSN twice).</summary>
    public const string Duplicate = "duplicate";
}
