using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace Notifications.Shared.Contract;

/// <summary>
/// What a push row must be: recipient = <c>fcm:&lt;registration token&gt;</c> or <c>apns:&lt;device token&gt;</c>, subject = the
/// title, body = the text, data = custom data (a JSON object of string values, as FCM requires); a title, a text or data at
/// least. Both providers refuse a payload over 4 KB; the sender checks the exact payload it builds as well.
/// </summary>
public static partial class PushRules
{
    /// <summary>The FCM provider's prefix in a push recipient.</summary>
    public const string Fcm = "fcm";

    /// <summary>The APNs provider's prefix in a push recipient.</summary>
    public const string Apns = "apns";

    /// <summary>APNs' and FCM's payload limit, in bytes.</summary>
    public const int MaxPayloadBytes = 4096;

    /// <summary>Null when <paramref name="message"/> is a valid push row; otherwise why not.</summary>
    public static string? Validate(NotificationMessage message)
    {
        ArgumentNullException.ThrowIfNull(message);
        if (!TryParseRecipient(message.Recipient, out _, out _, out string? recipientError))
        {
            return recipientError;
        }

        if (ChannelFields.EmailOnly(message, NotificationChannels.Push, bodyAllowed: true) is { } emailOnly)
        {
            return emailOnly;
        }

        if (string.IsNullOrEmpty(message.Subject) && string.IsNullOrEmpty(message.Body) && message.Data is null)
        {
            return "invalid push notification: no title (subject), text (body) or data";
        }

        if ((message.Subject ?? "").Any(char.IsControl))
        {
            return "invalid push title (subject): contains a control character";
        }

        if (message.Data is not null && ValidateData(message.Data) is { } dataError)
        {
            return dataError;
        }

        int bytes = Encoding.UTF8.GetByteCount(message.Subject ?? "") + Encoding.UTF8.GetByteCount(message.Body ?? "")
            + Encoding.UTF8.GetByteCount(message.Data ?? "");
        return bytes > MaxPayloadBytes
            ? $"invalid push notification: title, text and data are {bytes} bytes, over the providers' {MaxPayloadBytes}-byte payload limit"
            : null;
    }

    /// <summary>
    /// Splits a push recipient into its provider (<see cref="Fcm"/> or <see cref="Apns"/>) and token. An FCM registration token is
    /// letters, digits, '-', '_' and ':' (1-4096); an APNs device token is 64-200 hex digits, an even number of them.
    /// </summary>
    public static bool TryParseRecipient(string? recipient, out string provider, out string token, out string? error)
    {
        provider = token = "";
        int colon = recipient?.IndexOf(':') ?? -1;
        if (recipient is null || colon < 0)
        {
            error = $"invalid push recipient: '{NotificationValidator.Truncate(recipient ?? "")}' is not 'fcm:<registration token>' or 'apns:<device token>'";
            return false;
        }

        provider = recipient[..colon];
        token = recipient[(colon + 1)..];
        error = provider switch
        {
            Fcm when !FcmToken().IsMatch(token) || token.Length > 4096
                => "invalid FCM registration token: expected 1-4096 letters, digits, '-', '_' or ':'",
            Apns when !ApnsToken().IsMatch(token) || token.Length % 2 != 0
                => "invalid APNs device token: expected 64-200 hex digits (an even number)",
            Fcm or Apns => null,
            _ => $"invalid push provider '{NotificationValidator.Truncate(provider)}': expected 'fcm' or 'apns'",
        };
        return error is null;
    }

    private static string? ValidateData(string data)
    {
        using var document = ChannelFields.ParseJson(data, NotificationChannels.Push, out string? reason);
        if (document is null)
        {
            return reason;
        }

        if (document.RootElement.ValueKind != JsonValueKind.Object)
        {
            return "invalid push data: not a JSON object";
        }

        foreach (var property in document.RootElement.EnumerateObject())
        {
            if (property.Value.ValueKind != JsonValueKind.String)
            {
                return $"invalid push data: '{NotificationValidator.Truncate(property.Name)}' is not a string (FCM data values are strings)";
            }
        }

        return null;
    }

    [GeneratedRegex("^[A-Za-z0-9_:-]+$", RegexOptions.CultureInvariant)]
    private static partial Regex FcmToken();

    [GeneratedRegex("^[0-9a-fA-F]{64,200}$", RegexOptions.CultureInvariant)]
    private static partial Regex ApnsToken();
}
