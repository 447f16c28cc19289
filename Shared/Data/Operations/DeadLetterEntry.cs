namespace Notifications.Shared.Data.Operations;

/// <summary>One dead letter of a group, as the group's page lists it.</summary>
/// <param name="Id">The row's id (with <see cref="DeadLetteredAt"/>, the page's cursor).</param>
/// <param name="NotificationId">Its notification, by which a selection takes it; null for a message that had none.</param>
/// <param name="Reason">Why it was dead-lettered, in full.</param>
/// <param name="Attempts">How many attempts it had.</param>
/// <param name="DeadLetteredAt">When.</param>
/// <param name="HasKey">Whether a job can take it (rows from before letter keys cannot: <c>admin dead-letters requeue</c> can).</param>
public sealed record DeadLetterEntry(long Id, long? NotificationId, string Reason, int Attempts, DateTimeOffset DeadLetteredAt, bool HasKey);
