namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// What the webhook receiver concluded: verified, or the status it refuses with (400 malformed headers, 401 no
/// signature matches or the timestamp is outside the tolerance) and why.
/// </summary>
internal sealed record WebhookVerdict(bool Verified, int Status, string Reason)
{
    public static WebhookVerdict Accepted { get; } = new(true, 200, "verified");

    public static WebhookVerdict BadRequest(string reason) => new(false, 400, reason);

    public static WebhookVerdict Unauthorized(string reason) => new(false, 401, reason);
}
