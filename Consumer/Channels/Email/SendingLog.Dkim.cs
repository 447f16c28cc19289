using Microsoft.Extensions.Logging;

namespace Notifications.Consumer.Channels.Email;

/// <summary>DKIM messages of the senders (EventIds 4240-4259).</summary>
internal static partial class SendingLog
{
    [LoggerMessage(4240, LogLevel.Information, "DKIM signing on: d={Domain}, s={Selector}, c=relaxed/relaxed, h={Headers}; key {PrivateKeyFile}")]
    public static partial void DkimSigningOn(ILogger logger, string domain, string selector, string headers, string privateKeyFile);
}
