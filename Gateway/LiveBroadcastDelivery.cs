using Microsoft.Extensions.Logging;
using Notifications.Shared.Data;

namespace Notifications.Gateway;

/// <summary>
/// A broadcast to a topic routed to this node (docs/live.md#broadcasts-to-a-topic): which of the subscribers connected here
/// receive it is the database's answer, one statement for all of them (in the topic, let through by the category, not acked;
/// at most once, marked sent in the same statement); each of their connections is then offered the frame as a routed
/// notification. Off the broker's consumer thread: frames for single subscribers go on meanwhile. When the database does not
/// answer, the connected apps get the broadcast at their next connect (its row waits).
/// </summary>
internal sealed partial class LiveBroadcastDelivery(ILiveBroadcastStore store, Presence presence, ILogger<LiveBroadcastDelivery> logger)
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(30);

    /// <summary>Delivers broadcast <paramref name="id"/> (<paramref name="frame"/>) to its subscribers connected here.</summary>
    public void Start(long id, byte[] frame, bool atMostOnce) => _ = DeliverAsync(id, frame, atMostOnce);

    /// <summary>The delivery of one broadcast; completes when its frames are offered (tests wait on it).</summary>
    internal async Task DeliverAsync(long id, byte[] frame, bool atMostOnce)
    {
        await Task.Yield();
        try
        {
            var connected = presence.Connected();
            using var timeout = new CancellationTokenSource(Timeout);
            var recipients = await store.RecipientsAsync(id, connected, atMostOnce, timeout.Token);
            // Marked already when at most once: the session sends it without a mark of its own.
            var live = new LiveFrame(id, frame, AtMostOnce: false);
            foreach (string subscriber in recipients)
            {
                presence.Deliver(subscriber, live);
            }

            LogDelivered(logger, id, recipients.Count, connected.Count);
        }
        catch (Exception ex)
        {
            LogFailed(logger, id, ex.Message);
        }
    }

    [LoggerMessage(EventId = 7540, Level = LogLevel.Debug, Message = "Broadcast {Id}: offered to {Recipients} of the {Connected} subscribers connected here")]
    private static partial void LogDelivered(ILogger logger, long id, int recipients, int connected);

    [LoggerMessage(EventId = 7541, Level = LogLevel.Warning, Message = "Broadcast {Id}: its subscribers here could not be read ({Reason}); their apps get it at their next connect")]
    private static partial void LogFailed(ILogger logger, long id, string reason);
}
