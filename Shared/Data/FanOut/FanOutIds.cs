namespace Notifications.Shared.Data.FanOut;

/// <summary>
/// The fan-out deliveries' notification ids (the sequence <c>fanout_delivery_id</c>, db/*/030_fan_out.sql): from 2^62 up,
/// a range the outbox's own ids (counted from 1) never reach, so an id says which it is.
/// </summary>
public static class FanOutIds
{
    /// <summary>The first delivery id: 2^62.</summary>
    public const long First = 4611686018427387904;

    /// <summary>Whether <paramref name="id"/> is a fan-out delivery's, not an outbox row's.</summary>
    public static bool IsDelivery(long id) => id >= First;
}
