namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// What the push server concluded about one request, as the real service would answer it: the status, the
/// reason (APNs' <c>reason</c>, FCM's <c>errorCode</c> or status, "accepted") and the response body.
/// </summary>
internal sealed record PushVerdict(int Status, string Reason, string Body)
{
    public bool Accepted => Status is 200;
}
