namespace Notifications.Shared.Data.Operations;

/// <summary>The dead letters of one reason class (<see cref="DeadLetterReasonClass"/>): how many, the first and the latest.</summary>
/// <param name="ReasonClass">The group's key.</param>
/// <param name="Count">How many, exact up to <see cref="IDeadLetterGroupStore.CountCap"/>; one more means more than that.</param>
/// <param name="FirstAt">The oldest dead letter's instant.</param>
/// <param name="LastAt">The latest dead letter's instant.</param>
public sealed record DeadLetterGroup(string ReasonClass, long Count, DateTimeOffset FirstAt, DateTimeOffset LastAt)
{
    /// <summary>Whether the group holds more than <see cref="IDeadLetterGroupStore.CountCap"/> (its count is not exact).</summary>
    public bool IsMore => Count > IDeadLetterGroupStore.CountCap;
}
