namespace Notifications.Consumer.Pipeline;

/// <summary>
/// The lanes a consumer process consumes (<c>Consumer:Lanes</c>): written as <c>Standard</c>, <c>Urgent</c> or
/// <c>Standard, Urgent</c> (the default).
/// </summary>
[Flags]
internal enum ConsumerLanes
{
    /// <summary>The work queue (normal and bulk rows), with the rate-limit lanes whose messages its handlers take.</summary>
    Standard = 1,

    /// <summary>The urgent queue, with its own handlers (<c>Consumer:UrgentHandlers</c>).</summary>
    Urgent = 2,
}
