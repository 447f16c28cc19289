namespace Notifications.Shared.Data;

/// <summary>A <c>dead_letter</c> row as both dialects' stores read it back (the instant as UTC).</summary>
internal sealed class DeadLetterRow
{
    public Guid Key { get; init; }

    public long? NotificationId { get; init; }

    public string Reason { get; init; } = "";

    public int Attempts { get; init; }

    public DateTime DeadLetteredAt { get; init; }

    public string? MessageId { get; init; }

    public string? MessageType { get; init; }

    public string? ContentType { get; init; }

    public byte[]? Body { get; init; }

    public DeadLetterRecord ToRecord() =>
        new(NotificationId, Reason, Attempts, new DateTimeOffset(DateTime.SpecifyKind(DeadLetteredAt, DateTimeKind.Utc)))
        {
            Key = Key, MessageId = MessageId, MessageType = MessageType, ContentType = ContentType, Body = Body,
        };
}
