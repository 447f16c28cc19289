namespace Notifications.Consumer.Settling;

/// <summary>How a handler ends one item of an envelope (see <see cref="EnvelopeSettlement"/>).</summary>
internal enum ItemSettlement
{
    /// <summary>Finished here: sent, skipped as a duplicate, or moved elsewhere (retry, dead letter, lane) with its copy confirmed.</summary>
    Done,

    /// <summary>
    /// Not handled (the relay breaker turned it away, a move failed, or shutdown came before or during its handling): back to
    /// the queue, in its place if it can be (no item of its envelope settled), else with the envelope's other unsettled items.
    /// </summary>
    Requeue,

    /// <summary>Not sent while the relay is down: back to the tail of the work queue, attempt unchanged, so the next probe takes another.</summary>
    Return,

    /// <summary>
    /// Not sent, its destination turning sends away for now (an endpoint's or provider's breaker open, a Retry-After pause):
    /// parked in a delay queue, attempt unchanged, with the envelope's other parked items, until about when it takes sends again.
    /// </summary>
    Park,
}
