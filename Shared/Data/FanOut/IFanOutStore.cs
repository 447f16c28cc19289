namespace Notifications.Shared.Data.FanOut;

/// <summary>
/// The fan-out stage's tables (<c>fanout_job</c>, <c>audience_delivery</c>; docs/fan-out.md), one implementation per
/// dialect. A job is worked by one producer at a time, under a lease it renews with every call; a call that finds the
/// lease gone (it ran out and another producer took the job) returns null or false and changes nothing.
/// </summary>
public interface IFanOutStore
{
    /// <summary>
    /// Leases the oldest running job whose lease is free or ran out to <paramref name="owner"/> for <paramref name="lease"/>,
    /// skipping jobs another producer is locking at this moment. Null: none.
    /// </summary>
    Task<FanOutJob?> LeaseAsync(string owner, TimeSpan lease, CancellationToken cancellationToken);

    /// <summary>
    /// The job's next page, in one transaction: the page after its cursor that is already materialised but unconfirmed (a
    /// restart: the same ids again), or else the next <paramref name="pageSize"/> subscribers of the audience in id order,
    /// written as deliveries (one per live contact point of the job's channels; opted out and no contact recorded, not
    /// returned). An audience that does not exist ends the job as <c>no_such_audience</c>, one with no subscriber left as
    /// <c>done</c>: both <see cref="FanOutPage.Ended"/>. Null: the lease is gone.
    /// </summary>
    Task<FanOutPage?> NextPageAsync(FanOutJob job, string owner, TimeSpan lease, int pageSize, CancellationToken cancellationToken);

    /// <summary>
    /// Leases a job the claim has just written (<see cref="OutboxClaim.StartFanOutsAsync"/>) to <paramref name="owner"/> and
    /// writes its next page as <see cref="NextPageAsync"/> does, both in <paramref name="claim"/>'s transaction: the page's ids
    /// are committed with the claim, before the claimer publishes them and moves the cursor with <see cref="AdvanceAsync(IReadOnlyList{ValueTuple{FanOutJob, FanOutPage}}, string, TimeSpan, CancellationToken)"/>.
    /// A claimer that dies in between leaves a job that any producer resumes when the lease runs out, the page again under the
    /// same ids. Null: the job is leased already (it existed before the claim).
    /// </summary>
    Task<FanOutPage?> WritePageInClaimAsync(OutboxClaim claim, FanOutJob job, string owner, TimeSpan lease, int pageSize, CancellationToken cancellationToken);

    /// <summary>
    /// Moves the job's cursor past <paramref name="page"/> once its deliveries are confirmed by the broker, and ends the job
    /// when the page was the last. False: the lease is gone (the page's deliveries may be published again by the new holder),
    /// or the page is no longer the job's unconfirmed one (advanced already): nothing changes.
    /// </summary>
    Task<bool> AdvanceAsync(FanOutJob job, FanOutPage page, string owner, TimeSpan lease, CancellationToken cancellationToken);

    /// <summary>
    /// <see cref="AdvanceAsync(FanOutJob, FanOutPage, string, TimeSpan, CancellationToken)"/> for several jobs of one holder,
    /// in one transaction; whether each moved (false: its lease is gone or it was advanced already).
    /// </summary>
    Task<bool[]> AdvanceAsync(IReadOnlyList<(FanOutJob Job, FanOutPage Page)> pages, string owner, TimeSpan lease, CancellationToken cancellationToken);

    /// <summary>Extends the lease (while the stage waits on back-pressure). False: it is gone.</summary>
    Task<bool> RenewAsync(FanOutJob job, string owner, TimeSpan lease, CancellationToken cancellationToken);
}
