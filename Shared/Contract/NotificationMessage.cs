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
/// <param name="TemplateName">A templated notification's template (then no <paramref name="Subject"/> or <paramref name="Body"/>):
/// the consumer renders it at send time. Absent from the JSON when null, so a prepared notification's bytes are unchanged.</param>
/// <param name="TemplateData">The template's data: a JSON object, as text.</param>
/// <param name="Locale">The wanted locale (BCP 47, e.g. <c>pt-BR</c>); null for the default.</param>
public sealed record NotificationMessage(
    long Id,
    string? Recipient,
    string? Subject,
    string? Body,
    bool IsHtml,
    DateTimeOffset CreatedAt,
    DateTimeOffset? ExpiresAt,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? TemplateName = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? TemplateData = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull)] string? Locale = null)
{
    /// <summary>Whether the consumer renders the subject and bodies from a template.</summary>
    [JsonIgnore]
    public bool IsTemplated => TemplateName is not null;
}
