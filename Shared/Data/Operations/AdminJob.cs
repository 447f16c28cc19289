namespace Notifications.Shared.Data.Operations;

/// <summary>A bulk requeue or purge of dead letters as the <c>admin_job</c> table holds it (progress as the runner last persisted it).</summary>
/// <param name="Id">The job's id.</param>
/// <param name="Kind"><see cref="AdminJobKinds.Requeue"/> or <see cref="AdminJobKinds.Purge"/>.</param>
/// <param name="Selection">Which dead letters: a group or a list of ids.</param>
/// <param name="RequestedBy">Who asked (the console's signed-in operator, or the command line's user).</param>
/// <param name="State">queued, running, done or failed.</param>
/// <param name="Total">How many dead letters the selection held when the job started; null before.</param>
/// <param name="Done">How many were requeued (or purged).</param>
/// <param name="Failed">How many of the selection were not found in the queue (taken meanwhile by another job or operator).</param>
/// <param name="LeaseOwner">The runner holding (or that last held) it.</param>
/// <param name="CreatedAt">When it was queued.</param>
/// <param name="StartedAt">When a runner first claimed it.</param>
/// <param name="FinishedAt">When it ended.</param>
/// <param name="LastError">Why it failed, if it did.</param>
public sealed record AdminJob(
    long Id, string Kind, DeadLetterSelection Selection, string RequestedBy, string State, long? Total, long Done, long Failed,
    string? LeaseOwner, DateTimeOffset CreatedAt, DateTimeOffset? StartedAt, DateTimeOffset? FinishedAt, string? LastError)
{
    /// <summary>Whether it ended (done or failed).</summary>
    public bool IsFinished => State is "done" or "failed";
}
