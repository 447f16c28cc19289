namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// <see cref="DeliveryArrivals"/> at one moment (<c>GET /_receiver/arrivals/counts</c>): distinct deliveries (notification
/// and device) accepted, and accepted again after their first.
/// </summary>
internal sealed record ArrivalCounts(long Distinct, long Duplicates);
