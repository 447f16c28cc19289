using Notifications.Shared.Data;

namespace Notifications.Admin;

/// <summary>Keeps the <c>dead_letter</c> table true to the queue when the admin takes dead letters out of it.</summary>
internal static class DeadLetterRecords
{
    /// <summary>Removes the rows of the dead letters requeued; returns how many rows went.</summary>
    public static async Task<int> ForgetAsync(AdminContext admin, IReadOnlyList<DeadLetter> moved, CancellationToken cancellationToken)
    {
        int removed = 0;
        // A letter without x-dead-at was dead-lettered before the table existed: it has no row.
        foreach (var letter in moved.Where(l => l.DeadAt is not null))
        {
            var record = new DeadLetterRecord(letter.NotificationId, letter.Reason, letter.Attempts ?? 0, letter.DeadAt!.Value) { Key = letter.Key };
            removed += await admin.DatabaseAsync(() => admin.DeadLetters.RemoveAsync(record, cancellationToken));
        }

        return removed;
    }
}
