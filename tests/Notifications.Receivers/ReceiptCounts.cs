namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// A receiver's counts at one moment (<see cref="ReceiptCounter.Snapshot"/>; <c>GET /_receiver/counts</c> as JSON):
/// requests; accepted ones (verified, answered 2xx); distinct ids accepted at least once; accepted again after the first
/// (duplicates); refused (a failed signature or token check, a refused payload, a scripted error); requests with no id.
/// </summary>
internal sealed record ReceiptCounts(long Requests, long Accepted, long Distinct, long Duplicates, long Refused, long Unidentified)
{
    public static ReceiptCounts Zero { get; } = new(0, 0, 0, 0, 0, 0);
}
