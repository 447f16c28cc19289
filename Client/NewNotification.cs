using System.Text.Json;
using System.Text.Json.Nodes;

namespace Notifications.Client;

/// <summary>
/// What a business application enqueues: a prepared notification (this constructor: subject and body as sent) or a
/// templated one (<see cref="FromTemplate(string, string, JsonObject, string?)"/>: rendered by the consumer at send time).
/// </summary>
/// <param name="Recipient">One bare e-mail address.</param>
/// <param name="Subject">The subject line (empty for a templated notification).</param>
/// <param name="Body">The body, text or HTML (empty for a templated notification).</param>
public sealed partial record NewNotification(string Recipient, string Subject, string Body)
{
    /// <summary>The longest <see cref="TemplateName"/> the column holds, in characters.</summary>
    public const int MaxTemplateNameLength = 200;

    /// <summary>The longest <see cref="Locale"/> the column holds, in characters.</summary>
    public const int MaxLocaleLength = 35;

    /// <summary>The longest <see cref="IdempotencyKey"/> the column holds, in characters (UTF-16 code units).</summary>
    public const int MaxIdempotencyKeyLength = 200;

    /// <summary>Whether <see cref="Body"/> is HTML.</summary>
    public bool IsHtml { get; init; }

    /// <summary>Optional: after this instant the notification is dead-lettered as expired instead of sent.</summary>
    public DateTimeOffset? ExpiresAt { get; init; }

    /// <summary>
    /// Optional: the W3C <c>traceparent</c> (<c>00-{trace id}-{span id}-{flags}</c>) whose trace the delivery
    /// joins. Left null, <see cref="NotificationOutbox.EnqueueAsync"/> takes the current Activity's, if any.
    /// </summary>
    public string? TraceParent { get; init; }

    /// <summary>Optional: the lane (default <see cref="NotificationPriority.Normal"/>).</summary>
    public NotificationPriority Priority { get; init; } = NotificationPriority.Normal;

    /// <summary>
    /// Optional: nothing is sent before this instant; the row is claimed within about a second after it
    /// (claim-time precision). Null sends as soon as possible.
    /// </summary>
    public DateTimeOffset? NotBefore { get; init; }

    /// <summary>
    /// Optional, at most <see cref="MaxIdempotencyKeyLength"/> characters: enqueuing a key that was enqueued
    /// before (and committed) inserts nothing and returns the first notification's id. Keys are kept as long
    /// as the delivery log's retention (<c>Retention:DeliveryLog</c>), then forgotten.
    /// </summary>
    public string? IdempotencyKey { get; init; }

    /// <summary>
    /// Optional: the Reply-To header, an RFC 5322 address list (comma-separated mailboxes, each a bare address or
    /// <c>Name &lt;address&gt;</c>). Cc and Bcc take the same form.
    /// </summary>
    public string? ReplyTo { get; init; }

    /// <summary>Optional: more recipients, named in the Cc header.</summary>
    public string? Cc { get; init; }

    /// <summary>Optional: more recipients, named in no header.</summary>
    public string? Bcc { get; init; }

    /// <summary>
    /// Optional: custom headers, name to value (e.g. <c>X-Campaign</c>). A header the system writes itself (From,
    /// To, Subject, Message-ID, DKIM-Signature, List-Unsubscribe, any Content-*, ...) cannot be set here; values
    /// are one line (no CR or LF). The list: docs/messages.md.
    /// </summary>
    public IReadOnlyDictionary<string, string>? Headers { get; init; }

    /// <summary>A templated notification's template name (null for a prepared one).</summary>
    public string? TemplateName { get; private init; }

    /// <summary>A templated notification's data: a JSON object, as text.</summary>
    public string? TemplateData { get; private init; }

    /// <summary>A templated notification's wanted locale (BCP 47, e.g. <c>pt-BR</c>); null for the default.</summary>
    public string? Locale { get; private init; }

    /// <summary>
    /// A notification rendered by the consumer at send time from the template <paramref name="templateName"/>
    /// (put with <c>admin templates put</c>) and <paramref name="data"/>: the subject, plain-text body and HTML body
    /// of the template version in <paramref name="locale"/>, or the nearest one (<c>pt-BR</c>, then <c>pt</c>, then
    /// the default). A template or variable that is missing at send time dead-letters the notification with the reason.
    /// </summary>
    /// <exception cref="ArgumentException">The name or locale is empty or too long.</exception>
    public static NewNotification FromTemplate(string recipient, string templateName, JsonObject data, string? locale = null)
    {
        ArgumentNullException.ThrowIfNull(data);
        return Templated(recipient, templateName, data.ToJsonString(), locale);
    }

    /// <summary>As <see cref="FromTemplate(string, string, JsonObject, string?)"/>, with the data as JSON text.</summary>
    /// <exception cref="ArgumentException">The data is not a JSON object, or the name or locale is empty or too long.</exception>
    public static NewNotification FromTemplate(string recipient, string templateName, string dataJson, string? locale = null)
    {
        ArgumentNullException.ThrowIfNull(dataJson);
        try
        {
            using var document = JsonDocument.Parse(dataJson);
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                throw new ArgumentException($"The template data must be a JSON object, not {document.RootElement.ValueKind}.", nameof(dataJson));
            }
        }
        catch (JsonException ex)
        {
            throw new ArgumentException($"The template data is not JSON: {ex.Message}", nameof(dataJson), ex);
        }

        return Templated(recipient, templateName, dataJson, locale);
    }

    private static NewNotification Templated(string recipient, string templateName, string data, string? locale)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(templateName);
        if (templateName.Length > MaxTemplateNameLength)
        {
            throw new ArgumentException($"The template name is longer than {MaxTemplateNameLength} characters.", nameof(templateName));
        }

        if (locale is { Length: 0 or > MaxLocaleLength })
        {
            throw new ArgumentException($"The locale is empty or longer than {MaxLocaleLength} characters: leave it null for the default.", nameof(locale));
        }

        return new NewNotification(recipient, "", "") { TemplateName = templateName, TemplateData = data, Locale = locale };
    }
}
