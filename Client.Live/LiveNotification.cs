using System.Text.Json;

namespace Notifications.Client.Live;

/// <summary>A notification the gateway sent (a <c>{"type":"notification",…}</c> frame, docs/live.md).</summary>
/// <param name="Id">The notification id, as a string of decimal digits (fan-out ids exceed a JavaScript number); the same
/// id as a push copy of the same notification, so an app shows it once.</param>
/// <param name="Subject">The subject, if it has one.</param>
/// <param name="Body">The body, if it has one.</param>
/// <param name="Data">The app's own data (a JSON object), if the notification carries any.</param>
public sealed record LiveNotification(string Id, string? Subject, string? Body, JsonElement? Data);
