using Notifications.Shared.Data;

namespace Notifications.Consumer.DeadLetterInbox;

/// <summary>
/// One dead letter made of a message found in the inbox: its <c>dead_letter</c> row and the message that goes to the dead-letter
/// queue (an envelope gives one each item, as the consumer's own dead letters do, so <c>dead-letters show --id</c> and requeue
/// find each notification).
/// </summary>
internal sealed record InboxItem(DeadLetterRecord Record, byte[] Body, string? ContentType, string? Type, string? MessageId,
    Dictionary<string, object?> Headers);
