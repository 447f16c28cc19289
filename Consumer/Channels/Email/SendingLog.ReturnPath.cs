using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Channels.Email;

/// <summary>The envelope sender of the senders (EventIds 4260-4264).</summary>
internal static partial class SendingLog
{
    [LoggerMessage(4260, LogLevel.Information,
        "Signed return paths on: each email's envelope sender (MAIL FROM) is {Example} for its notification; the From header stays {From}")]
    public static partial void ReturnPathOn(ILogger logger, string example, string from);
}
