namespace Notifications.Shared.Data.Operations;

/// <summary>The dead letters of one reason class (<see cref="DeadLetterReasonClass"/>): how many, the first and the latest.</summary>
public sealed record DeadLetterGroup(string ReasonClass, long Count, DateTimeOffset FirstAt, DateTimeOffset LastAt);
