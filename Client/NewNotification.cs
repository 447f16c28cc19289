namespace Notifications.Client;

/// <summary>What a business application enqueues.</summary>
/// <param name="Recipient">One bare e-mail address.</param>
/// <param name="Subject">The subject line.</param>
/// <param name="Body">The body, text or HTML.</param>
public sealed record NewNotification(string Recipient, string Subject, string Body)
{
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
}
