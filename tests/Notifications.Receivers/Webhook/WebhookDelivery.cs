namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>One request the webhook receiver got: its webhook-id, headers and body as sent, the verdict and the status answered.</summary>
internal sealed record WebhookDelivery(
    string? Id,
    string Path,
    IReadOnlyDictionary<string, string> Headers,
    byte[] Body,
    WebhookVerdict Verdict,
    int? AnsweredStatus,
    DateTimeOffset ArrivedAt)
{
    /// <summary>How long after its arrival the answer was scripted to come (a slow receiver), or null for at once.</summary>
    public TimeSpan? AnswerDelay { get; init; }
}
