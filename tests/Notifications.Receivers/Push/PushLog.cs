using System.Collections.Concurrent;
using Microsoft.AspNetCore.Http;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Every send the push server got (unless it counts only: <see cref="ReceiverMode.KeepRequests"/>), counted per notification id;
/// and the device tokens a test marked unregistered. With <paramref name="recordArrivals"/>, each delivery's first arrival too.
/// </summary>
internal sealed class PushLog(bool keepRequests = true, bool recordArrivals = false)
{
    /// <summary>
    /// Where a test puts its notification id: an FCM <c>data</c> entry, or a top-level key of the APNs payload
    /// (else the <c>apns-collapse-id</c>, else the <c>apns-id</c> counts).
    /// </summary>
    public const string NotificationIdKey = "notification_id";

    private readonly ConcurrentQueue<PushRequest> requests = new();
    private readonly ConcurrentDictionary<string, byte> unregistered = new(StringComparer.Ordinal);

    public IReadOnlyList<PushRequest> Requests => requests.ToArray();

    /// <summary>Every send counted by its notification id; accepted = the server's verdict was 200 and 200 was answered.</summary>
    public ReceiptCounter Receipts { get; } = new();

    /// <summary>
    /// Each accepted delivery (notification id and device, <c>fcm:&lt;token&gt;</c> or <c>apns:&lt;token&gt;</c>) with its
    /// first arrival, when the server records them (the fan-out benchmark); else null.
    /// </summary>
    public DeliveryArrivals? Arrivals { get; } = recordArrivals ? new DeliveryArrivals() : null;

    public int CountFor(string notificationId) => Receipts.CountFor(notificationId);

    public int AcceptedCountFor(string notificationId) =>
        requests.Count(r => r.NotificationId == notificationId && r.Verdict.Accepted && r.AnsweredStatus is 200);

    public void MarkUnregistered(string deviceToken) => unregistered[deviceToken] = 0;

    public bool IsUnregistered(string deviceToken) => unregistered.ContainsKey(deviceToken);

    public void Record(PushRequest request)
    {
        if (keepRequests)
        {
            requests.Enqueue(request);
        }

        bool accepted = request.Verdict.Accepted && request.AnsweredStatus is 200;
        Receipts.Record(request.NotificationId, accepted);
        if (accepted && Arrivals is not null)
        {
            Arrivals.RecordAccepted(request.NotificationId, $"{request.Provider}:{request.Token}", DeliveryArrivals.NowMicroseconds());
        }
    }

    public static IReadOnlyDictionary<string, string> HeadersOf(HttpRequest request) =>
        request.Headers.ToDictionary(h => h.Key.ToLowerInvariant(), h => h.Value.ToString(), StringComparer.Ordinal);

    public static async Task<byte[]> ReadBodyAsync(HttpRequest request, CancellationToken ct)
    {
        using var buffer = new MemoryStream();
        await request.Body.CopyToAsync(buffer, ct);
        return buffer.ToArray();
    }
}
