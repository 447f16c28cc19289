using System.Text.Json.Serialization;

namespace Notifications.Shared.Contract;

/// <summary>
/// The wire contract: one outbox row as it travels through RabbitMQ (JSON, <c>application/json</c>).
/// Strings are nullable because the consumer must cope with any bytes on the queue, not only rows
/// the producer wrote; <see cref="NotificationValidator"/> decides what is acceptable.
/// </summary>
/// <param name="Id">The notification id: the outbox row's id and the delivery log's key.</param>
/// <param name="Recipient">A single bare e-mail address.</param>
/// <param name="Subject">The subject line (no CR or LF).</param>
/// <param name="Body">The message body, text or HTML.</param>
/// <param name="IsHtml">Whether <paramref name="Body"/> is HTML.</param>
/// <param name="CreatedAt">When the business transaction inserted the row.</param>
/// <param name="ExpiresAt">After this instant the notification is not sent but dead-lettered as expired.</param>
public sealed record NotificationMessage(
    long Id,
    string? Recipient,
    string? Subject,
    string? Body,
    bool IsHtml,
    DateTimeOffset CreatedAt,
    DateTimeOffset? ExpiresAt)
{
    // Optional fields are init-only, not positional, and left out of the JSON when null: a message without them
    // has the same bytes as before they existed, and every existing constructor call stays as it is.

    /// <summary>Reply-To: an RFC 5322 address list (comma-separated mailboxes), see <see cref="MessageHeaders"/>.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? ReplyTo { get; init; }

    /// <summary>Cc: an address list; each mailbox is a recipient and appears in the Cc header.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Cc { get; init; }

    /// <summary>Bcc: an address list; each mailbox is a recipient (RCPT TO) and appears in no header.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Bcc { get; init; }

    /// <summary>Custom headers: a JSON object text of names to string values, as stored in the outbox.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Headers { get; init; }

    /// <summary>
    /// The outbox row's priority (<c>urgent</c>, <c>normal</c>, <c>bulk</c>); absent (null) means normal. The consumer
    /// gives bulk mail its List-Unsubscribe headers and applies bulk-only suppression entries to it.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Priority { get; init; }

    /// <summary>Whether it travels in the bulk lane (priority <c>bulk</c>).</summary>
    [JsonIgnore]
    public bool IsBulk => Priority == "bulk";

    /// <summary>
    /// A templated notification's template (then no <see cref="Subject"/> or <see cref="Body"/>): the consumer renders
    /// it at send time (docs/templates.md).
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? TemplateName { get; init; }

    /// <summary>The template's data: a JSON object, as text.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? TemplateData { get; init; }

    /// <summary>The wanted locale (BCP 47, e.g. <c>pt-BR</c>); null for the default.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Locale { get; init; }

    /// <summary>Whether the consumer renders the subject and bodies from a template.</summary>
    [JsonIgnore]
    public bool IsTemplated => TemplateName is not null;

    /// <summary>
    /// The channel (<see cref="NotificationChannels"/>); absent (null) means email, so an email's bytes are as before channels.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Channel { get; init; }

    /// <summary>The channel the consumer sends it through: <see cref="Channel"/>, or email when absent.</summary>
    [JsonIgnore]
    public string ChannelName => Channel ?? NotificationChannels.Email;

    /// <summary>A prepared mail's HTML alternative to its plain-text <see cref="Body"/>: sent as multipart/alternative.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? HtmlBody { get; init; }

    /// <summary>
    /// How many files the table <c>attachment</c> holds for this notification (null: none): the consumer loads them when it
    /// sends, and refuses the mail if they are not all there. The files do not travel on the queue.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public short? Attachments { get; init; }

    /// <summary>
    /// The From header's display name for this mail (the outbox's <c>from_name</c>); the address stays Smtp:From's (DKIM and
    /// SPF vouch for its domain). Null: Smtp:From's own name.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? FromName { get; init; }

    /// <summary>
    /// What the notification is about (the outbox's <c>category</c>: <c>security</c>, <c>orders</c>, <c>marketing</c>): the
    /// consumer does not send it to an address whose subscriber opted out of it on its channel (docs/preferences.md). Null: none.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Category { get; init; }

    /// <summary>The outbox's <c>data</c>: JSON text, a webhook's payload data or a push notification's custom data.</summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public string? Data { get; init; }

    /// <summary>
    /// The live delivery this push delivery backs up (an audience row's <c>live&gt;push</c>): the consumer sends it only if no
    /// app acked that one within <c>Live:PushAfter</c> (docs/live.md). Null: sent as usual.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public long? LiveFallbackOf { get; init; }

    /// <summary>
    /// A live row to a topic (an audience row of channels <c>live</c> alone, <see cref="Recipient"/> <c>topic:&lt;name&gt;</c>):
    /// one broadcast row for every gateway node to send to its connections of the topic's subscribers, not a delivery per
    /// subscriber (docs/live.md#broadcasts-to-a-topic). Null: not one.
    /// </summary>
    [JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)]
    public bool? LiveBroadcast { get; init; }
}
