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
    /// <summary>
    /// The outbox row's priority (<c>urgent</c>, <c>normal</c>, <c>bulk</c>); absent (null) means normal. The consumer
    /// gives bulk mail its List-Unsubscribe headers and applies bulk-only suppression entries to it.
    /// </summary>
    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)]
    public string? Priority { get; init; }

    /// <summary>Whether it travels in the bulk lane (priority <c>bulk</c>).</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool IsBulk => Priority == "bulk";
}
