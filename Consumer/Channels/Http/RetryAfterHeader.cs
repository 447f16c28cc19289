using System.Net.Http.Headers;

namespace Notifications.Consumer.Channels.Http;

/// <summary>An HTTP answer's Retry-After, as the webhook and push senders honour it.</summary>
internal static class RetryAfterHeader
{
    /// <summary>Retry-After as a delay from <paramref name="now"/> (seconds or an HTTP date), at most <paramref name="max"/>; null when absent.</summary>
    public static TimeSpan? Delay(RetryConditionHeaderValue? header, DateTimeOffset now, TimeSpan max)
    {
        var delay = header switch
        {
            { Delta: { } delta } => delta,
            { Date: { } date } => date - now,
            _ => (TimeSpan?)null,
        };
        return delay is { } d ? TimeSpan.FromTicks(Math.Clamp(d.Ticks, 0, max.Ticks)) : null;
    }
}
