namespace Notifications.Harness;

/// <summary>
/// The priority mode's urgent notifications: offered at a steady rate while the bulk backlog drains, then measured where they
/// land — the SMTP server (<see cref="UrgentFlow"/>) or a connected app (<see cref="Live.LiveUrgentFlow"/>).
/// </summary>
internal interface IUrgentFlow : IAsyncDisposable
{
    /// <summary>Offers the urgent rows inside <paramref name="window"/> less its margins (the consumers stop at its end).</summary>
    Task OfferAsync(TimeSpan window);

    /// <summary>Offered rows, and the latencies of those that arrived.</summary>
    Task<UrgentFlow.Result> MeasureAsync();
}
