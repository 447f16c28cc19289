using MimeKit;

namespace Notifications.Bounces.Reports;

/// <summary>
/// Automatic replies that are not bounces: RFC 3834's <c>Auto-Submitted</c> (any value but <c>no</c>), and the older
/// markers out-of-office responders still send (<c>X-Autoreply</c>, <c>X-Autorespond</c>, <c>Precedence: auto_reply</c>).
/// </summary>
internal static class AutoReplies
{
    public static bool IsAutoReply(MimeMessage message)
    {
        var headers = message.Headers;
        string? submitted = headers["Auto-Submitted"]?.Trim();
        return (submitted is { Length: > 0 } && !submitted.StartsWith("no", StringComparison.OrdinalIgnoreCase))
            || headers.Contains("X-Autoreply") || headers.Contains("X-Autorespond")
            || string.Equals(headers["Precedence"]?.Trim(), "auto_reply", StringComparison.OrdinalIgnoreCase);
    }
}
