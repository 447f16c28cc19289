namespace Notifications.Admin.Operations;

/// <summary>What a move took out of the dead-letter queue: each letter's notification id (null: the body held none), and the <c>dead_letter</c> rows removed.</summary>
internal sealed record DeadLetterBulkResult(IReadOnlyList<long?> Moved, int RowsRemoved);
