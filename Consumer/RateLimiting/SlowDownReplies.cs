using System.Text.RegularExpressions;
using Notifications.Consumer.Channels.Email;
using Notifications.Consumer.Channels;

namespace Notifications.Consumer.RateLimiting;

/// <summary>
/// The SMTP replies that mean "you send too fast": 421 (service closing the channel, e.g. too many
/// connections or messages), 452 (too many recipients / insufficient resources now) and 451 with an
/// enhanced status 4.7.x (the policy class: rate limited, greylisted, try later).
/// </summary>
internal static partial class SlowDownReplies
{
    public static bool IsSlowDown(Exception exception) => exception is SmtpSendException { Kind: SendFailureKind.Transient } smtp
        && (smtp.ReplyCode is 421 or 452 || (smtp.ReplyCode == 451 && PolicyStatus().IsMatch(smtp.Message)));

    [GeneratedRegex(@"(?<![\d.])4\.7\.\d{1,3}(?![\d.])", RegexOptions.CultureInvariant)]
    private static partial Regex PolicyStatus();
}
