namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// One send the push server got: the provider ("fcm" or "apns"), the device token, the notification id the test set
/// (<see cref="PushLog.NotificationIdKey"/>), headers and body as sent, the verdict and the status answered (null: hung).
/// </summary>
internal sealed record PushRequest(
    string Provider,
    string? Token,
    string? NotificationId,
    string Protocol,
    IReadOnlyDictionary<string, string> Headers,
    byte[] Body,
    PushVerdict Verdict,
    int? AnsweredStatus,
    DateTimeOffset ArrivedAt);
