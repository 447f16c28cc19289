namespace Notifications.Shared.Data;

/// <summary>What operators read and do in the database (the admin command line), one implementation per SQL dialect.</summary>
public interface IOperationsStore
{
    /// <summary>Deliveries recorded in the last <paramref name="window"/> and how many met the SLO thresholds.</summary>
    Task<DeliveryWindow> GetDeliveryWindowAsync(TimeSpan window, CancellationToken cancellationToken);

    /// <summary>Up to <paramref name="limit"/> rows of <c>rate_limit</c> (one a limit: the relay, each limited domain), by name.</summary>
    Task<IReadOnlyList<RateLimitState>> ListRateLimitsAsync(int limit, CancellationToken cancellationToken);

    /// <summary>Deletes every row of the outbox; returns how many.</summary>
    Task<long> PurgeOutboxAsync(CancellationToken cancellationToken);
}
