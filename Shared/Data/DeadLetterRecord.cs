namespace Notifications.Shared.Data;

/// <summary>A message moved to the dead-letter queue, as the <c>dead_letter</c> table records it (one row each).</summary>
/// <param name="NotificationId">The notification id; null when the message has none (not a notification, garbage bytes).</param>
/// <param name="Reason">Why (the <c>x-dead-reason</c> header); cut to <see cref="MaxReasonLength"/> characters.</param>
/// <param name="Attempts">Attempts it had (the <c>x-dead-attempts</c> header).</param>
/// <param name="DeadLetteredAt">When (the <c>x-dead-at</c> header, whole milliseconds, so the row and the message match).</param>
public sealed record DeadLetterRecord(long? NotificationId, string Reason, int Attempts, DateTimeOffset DeadLetteredAt)
{
    /// <summary>The <c>reason</c> column's length.</summary>
    public const int MaxReasonLength = 1000;

    /// <summary>The length of the <c>message_id</c>, <c>message_type</c> and <c>content_type</c> columns (an AMQP short string's).</summary>
    public const int MaxPropertyLength = 255;

    /// <summary>
    /// The row's own key, carried by the dead-lettered message as its <c>x-dead-key</c> header; null for rows
    /// recorded before 012 (matched by id or reason and instant instead).
    /// </summary>
    public Guid? Key { get; init; }

    /// <summary>The AMQP message id of the message it arrived in, if any.</summary>
    public string? MessageId { get; init; }

    /// <summary>The AMQP type property, if any.</summary>
    public string? MessageType { get; init; }

    /// <summary>The AMQP content type, if any.</summary>
    public string? ContentType { get; init; }

    /// <summary>The message's bytes as dead-lettered.</summary>
    public byte[]? Body { get; init; }

    /// <summary>The reason as stored: at most <see cref="MaxReasonLength"/> characters.</summary>
    public string StoredReason => Cut(Reason, MaxReasonLength)!;

    /// <summary>The group of the reason as stored (<see cref="Operations.DeadLetterReasonClass"/>), the <c>reason_class</c> column.</summary>
    public string StoredReasonClass => Operations.DeadLetterReasonClass.Of(StoredReason);

    /// <summary>The instant as stored and as the message's header carries it: whole milliseconds.</summary>
    public DateTimeOffset StoredAt => DateTimeOffset.FromUnixTimeMilliseconds(DeadLetteredAt.ToUnixTimeMilliseconds());

    /// <summary><paramref name="text"/> cut to <paramref name="length"/> characters, the last one an ellipsis when cut.</summary>
    public static string? Cut(string? text, int length = MaxPropertyLength) =>
        text is null || text.Length <= length ? text : text[..(length - 1)] + "…";
}
