namespace Notifications.Client;

/// <summary>
/// One push device of a subscriber: its provider (<c>fcm</c> or <c>apns</c>), the token the provider gave the app on that
/// device (kept exactly: tokens are case-sensitive) and optionally the app's id (bundle or package name).
/// </summary>
public sealed record PushDevice(string Provider, string Token, string? AppId = null)
{
    /// <summary>A device registered with Firebase Cloud Messaging.</summary>
    public static PushDevice Fcm(string token, string? appId = null) => new("fcm", token, appId);

    /// <summary>A device registered with the Apple Push Notification service.</summary>
    public static PushDevice Apns(string token, string? appId = null) => new("apns", token, appId);
}
