using Notifications.Shared.Data.Operations;

namespace Notifications.Admin.Operations;

/// <summary>
/// Runs bulk requeue and purge jobs (<c>admin_job</c>): claims one with a lease (so two console replicas, or a console and
/// the command line, never run the same job), reads what its selection still holds in <c>dead_letter</c>, moves those
/// letters through <see cref="DeadLetterBulk"/> and persists progress with each batch, renewing the lease. A runner that
/// stops (a restart, a crash) leaves its job running with a lease that runs out; the next claim <b>resumes</b> it: the
/// letters already moved have lost their rows, so the selection read again is what is left, and done/failed carry on.
/// </summary>
internal sealed class AdminJobRunner(IAdminJobStore jobs, IDeadLetterGroupStore groups, DeadLetterBulk bulk, AdminBroker broker, string owner)
{
    /// <summary>How long a claim lasts without a progress write (each batch of 200, and every 1,000 letters looked at, renews it).</summary>
    public static readonly TimeSpan Lease = TimeSpan.FromSeconds(30);

    /// <summary>
    /// Claims the oldest open job (or job <paramref name="id"/>), runs it to its end and returns it as it ended; null when
    /// there was none to claim. <paramref name="progress"/> sees the job after each persisted step.
    /// </summary>
    public async Task<AdminJob?> RunNextAsync(long? id, Func<AdminJob, Task>? progress, CancellationToken cancellationToken)
    {
        if (await jobs.ClaimAsync(id, owner, Lease, cancellationToken) is not { } job)
        {
            return null;
        }

        try
        {
            await RunAsync(job, progress, cancellationToken);
            await jobs.FinishAsync(job.Id, owner, "done", null, cancellationToken);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            throw;   // stopping: the lease runs out and the job is resumed by the next runner
        }
        catch (Exception ex)
        {
            await jobs.FinishAsync(job.Id, owner, "failed", $"{ex.GetType().Name}: {AdminContext.Innermost(ex).Message}", CancellationToken.None);
        }

        return await jobs.GetAsync(job.Id, CancellationToken.None);
    }

    private async Task RunAsync(AdminJob job, Func<AdminJob, Task>? progress, CancellationToken cancellationToken)
    {
        var remaining = (await groups.ListKeysAsync(job.Selection, cancellationToken)).ToHashSet();
        long total = job.Total ?? remaining.Count, done = job.Done, failedBefore = job.Failed;
        await ReportAsync(job, total, done, failedBefore, progress, cancellationToken);
        if (remaining.Count > 0)
        {
            int wanted = remaining.Count;
            await using var connection = await broker.ConnectAsync(cancellationToken);
            await bulk.MoveAsync(
                connection,
                job.Kind,
                // A second copy of a key already moved (a crash between a confirm and an ack) is not taken again.
                letter => letter.Key is { } key && remaining.Remove(key),
                wanted,
                async (moved, _) =>
                {
                    await ReportAsync(job, total, job.Done + moved, failedBefore, progress, cancellationToken);
                    return true;
                },
                cancellationToken);
            done = job.Done + (wanted - remaining.Count);
        }

        // What the selection held and the queue did not give: taken meanwhile by another job or operator, or gone.
        await ReportAsync(job, total, done, failedBefore + remaining.Count, progress, cancellationToken);
    }

    private async Task ReportAsync(AdminJob job, long total, long done, long failed, Func<AdminJob, Task>? progress, CancellationToken cancellationToken)
    {
        if (!await jobs.ProgressAsync(job.Id, owner, total, done, failed, Lease, cancellationToken))
        {
            throw new AdminException($"job {job.Id}: its lease was lost to another runner; stopped", ExitCodes.Failed);
        }

        if (progress is not null)
        {
            await progress(job with { Total = total, Done = done, Failed = failed, State = "running" });
        }
    }
}
