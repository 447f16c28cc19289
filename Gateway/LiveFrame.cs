namespace Notifications.Gateway;

/// <summary>
/// One notification's frame for a client (<see cref="Shared.Contract.LiveFrames"/>): its id, its bytes, and whether it goes
/// at most once (marked sent in <c>live_pending</c> before it is sent, and not sent when it was marked before).
/// </summary>
internal readonly record struct LiveFrame(long Id, ReadOnlyMemory<byte> Bytes, bool AtMostOnce);
