namespace Notifications.Shared.Data;

/// <summary>
/// What a connecting app of one subscriber is sent of its topics' broadcasts (<see cref="ILiveBroadcastStore.PendingAsync"/>):
/// <paramref name="Rows"/>, oldest first, and how many older ones this read expired for it past its cap
/// (<paramref name="Capped"/>: not sent to it again).
/// </summary>
public sealed record LiveBroadcastReplay(IReadOnlyList<LivePending> Rows, int Capped);
