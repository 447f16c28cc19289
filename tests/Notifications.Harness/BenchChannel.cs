using System.Globalization;
using System.Text.Json;
using Notifications.Shared.Contract;

namespace Notifications.Harness;

/// <summary>
/// The channel a run's rows go out through (<c>--channel</c>) and the shape of those rows: the same content as the email
/// rows (<see cref="BenchDatabase.Row"/>), so every channel carries about the same bytes. A webhook row names the run's
/// registered endpoint (<paramref name="Endpoint"/>) and carries the email's recipient, subject and text as its JSON data; a
/// push row goes to an FCM token or an APNs device token (<paramref name="PushProviders"/>: <c>fcm</c>, <c>apns</c>, or
/// <c>both</c> alternately) with the subject as title and the text as body, and the row number as the data's
/// <c>notification_id</c>, which the push server counts distinct ids by.
/// </summary>
internal sealed record BenchChannel(string Name, string? Endpoint = null, string PushProviders = "both")
{
    /// <summary>The webhook rows' event type (their subject).</summary>
    public const string EventType = "order.shipped";

    /// <summary>The APNs topic (bundle id) the consumer is configured with and the push server requires.</summary>
    public const string ApnsTopic = "com.example.bench";

    public static BenchChannel Email { get; } = new(NotificationChannels.Email);

    public bool IsEmail => Name == NotificationChannels.Email;

    /// <summary>Row <paramref name="n"/> of this channel: the outbox's recipient, subject, body and data.</summary>
    public (string Recipient, string Subject, string? Body, string? Data) Row(long n)
    {
        var (recipient, subject, body) = BenchDatabase.Row(n);
        return Name switch
        {
            NotificationChannels.Webhook => (Endpoint ?? throw new InvalidOperationException("a webhook run needs its endpoint's name"),
                EventType, null, WebhookData(n)),
            NotificationChannels.Push => (PushRecipient(n), subject, body, PushData(n)),
            _ => (recipient, subject, body, null),
        };
    }

    /// <summary>A webhook row's data: the email row's recipient, subject and text as a JSON object.</summary>
    public static string WebhookData(long n)
    {
        var (recipient, subject, body) = BenchDatabase.Row(n);
        return JsonSerializer.Serialize(new { recipient, subject, text = body });
    }

    /// <summary>A push row's data: its row number as <c>notification_id</c> (a string, as FCM data values are).</summary>
    public static string PushData(long n) => JsonSerializer.Serialize(new Dictionary<string, string> { ["notification_id"] = Invariant(n) });

    /// <summary>FCM for odd rows and APNs for even ones with <c>both</c>; otherwise the one provider named.</summary>
    public string ProviderOf(long n) => PushProviders switch
    {
        "fcm" => PushRules.Fcm,
        "apns" => PushRules.Apns,
        _ => n % 2 == 1 ? PushRules.Fcm : PushRules.Apns,
    };

    /// <summary><c>fcm:bench-token-N</c> or <c>apns:</c> + N as 64 hex digits.</summary>
    public string PushRecipient(long n) => ProviderOf(n) == PushRules.Fcm
        ? $"{PushRules.Fcm}:{FcmToken(n)}"
        : $"{PushRules.Apns}:{ApnsToken(n)}";

    public static string FcmToken(long n) => "bench-token-" + Invariant(n);

    public static string ApnsToken(long n) => n.ToString("x64", CultureInfo.InvariantCulture);

    private static string Invariant(long n) => n.ToString(CultureInfo.InvariantCulture);
}
