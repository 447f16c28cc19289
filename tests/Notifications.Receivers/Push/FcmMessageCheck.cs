namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>The outcome of checking an FCM v1 send body: the target token and notification id read, and the refusal if any.</summary>
internal sealed record FcmMessageCheck(string? Token, string? NotificationId, PushVerdict? Refusal);
