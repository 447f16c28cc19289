namespace Notifications.Shared.Data.FanOut;

/// <summary>A leased <c>fanout_job</c> row as read (both dialects).</summary>
internal sealed class FanOutJobRow
{
    public long Id { get; init; }

    public string Audience { get; init; } = "";

    public string Channels { get; init; } = "";

    public string? Category { get; init; }

    public string Parent { get; init; } = "";

    public FanOutJob ToJob() => new(Id, Audience, Channels, Category, FanOutParentJson.Deserialize(Parent));
}

/// <summary>Where a job stands: the confirmed cursor and the page written but not yet confirmed.</summary>
internal sealed class JobPosition
{
    public long Cursor { get; init; }

    public long? PageEnd { get; init; }
}

/// <summary>One <c>audience_delivery</c> row as a page's insert returns it.</summary>
internal sealed class WrittenDelivery
{
    public long Id { get; init; }

    public long SubscriberId { get; init; }

    public string? Channel { get; init; }

    public string? Address { get; init; }

    public string? Locale { get; init; }

    public string Outcome { get; init; } = "";

    /// <summary>
    /// The page of what one insert wrote: its published deliveries, its last subscriber id, and whether it is the audience's
    /// last (a subscriber is one page; a topic's page with fewer subscribers than asked for is its last: every subscriber
    /// of the page has at least one row, a delivery or its no_contact).
    /// </summary>
    public static FanOutPage Page(List<WrittenDelivery> written, int pageSize, bool isTopic)
    {
        var deliveries = written.Where(w => w.Outcome == FanOutOutcomes.Published)
            .Select(w => new AudienceDelivery(w.Id, w.SubscriberId, w.Channel!, w.Address!, w.Locale)).ToList();
        int subscribers = written.Select(w => w.SubscriberId).Distinct().Count();
        return new FanOutPage(deliveries, written.Max(w => w.SubscriberId), Last: !isTopic || subscribers < pageSize);
    }
}
