namespace Notifications.Shared.Data.FanOut;

/// <summary>
/// One page of a fan-out, materialised: the deliveries to publish (those the preferences let through), the last
/// subscriber id it covers, and whether it is the audience's last page. <see cref="Finished"/>: nothing more to publish (the
/// job is done, or its audience does not exist).
/// </summary>
public sealed record FanOutPage(IReadOnlyList<AudienceDelivery> Deliveries, long PageEnd, bool Last)
{
    /// <summary>The job ended without a page: the audience is exhausted or does not exist.</summary>
    public static FanOutPage Ended { get; } = new([], 0, Last: true);

    /// <summary>Whether the job ended with no page to publish.</summary>
    public bool Finished => ReferenceEquals(this, Ended);
}
