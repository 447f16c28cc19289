using System.Globalization;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Pipeline;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Consumer.Channels.Live;

/// <summary>
/// Live, then push (docs/live.md): a push delivery that backs up a live one (<see cref="NotificationMessage.LiveFallbackOf"/>)
/// goes only if no app acked the live one within <see cref="LiveOptions.PushAfter"/>. Until then it waits parked in a delay
/// queue, holding no handler. Its live row still pending that long: sent. The row gone and the live delivery recorded sent:
/// an app acked it, so the push copy is recorded <c>live_acked</c> and not sent. The live delivery not handled yet (its row not
/// written): it waits again, and goes after <see cref="LiveOptions.WaitForLive"/> whatever became of it.
/// </summary>
internal sealed class LiveFallback(ILivePendingStore pending, IOptions<LiveOptions> options, TimeProvider time)
{
    /// <summary>What to do with <paramref name="message"/> now: send it, wait, or leave it unsent with the reason.</summary>
    public async Task<LiveFallbackDecision> DecideAsync(NotificationMessage message, long liveId, DeliveryLog log, CancellationToken cancellationToken)
    {
        var o = options.Value;
        if (await pending.AgeAsync(liveId, cancellationToken) is { } age)
        {
            return age >= o.PushAfter ? LiveFallbackDecision.Send : LiveFallbackDecision.Wait(o.PushAfter - age);
        }

        if (await log.IsSentAsync(liveId, cancellationToken))
        {
            return LiveFallbackDecision.NotNeeded(string.Create(CultureInfo.InvariantCulture, $"an app acked live delivery {liveId}"));
        }

        return time.GetUtcNow() - message.CreatedAt < o.WaitForLive ? LiveFallbackDecision.Wait(o.PushAfter) : LiveFallbackDecision.Send;
    }

    /// <summary>Records the push copy <paramref name="message"/> as not sent: its live delivery was acked.</summary>
    public Task RecordNotNeededAsync(NotificationMessage message, int attempt, string reason, CancellationToken cancellationToken) =>
        pending.RecordLiveAckedAsync(message.Id, message.CreatedAt, attempt, reason, cancellationToken);
}

/// <summary>A push copy's fate: sent now (neither set), parked for <see cref="WaitFor"/>, or not sent for <see cref="Reason"/>.</summary>
internal readonly record struct LiveFallbackDecision(TimeSpan? WaitFor, string? Reason)
{
    public static LiveFallbackDecision Send => default;

    public static LiveFallbackDecision Wait(TimeSpan wait) => new(wait, null);

    public static LiveFallbackDecision NotNeeded(string reason) => new(null, reason);
}
