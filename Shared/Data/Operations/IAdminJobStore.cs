namespace Notifications.Shared.Data.Operations;

/// <summary>
/// The <c>admin_job</c> table: bulk requeue and purge jobs and their persisted progress. A runner claims a job with a lease
/// (one runner a job, however many console replicas), renews it with each progress write, and a job whose runner stopped
/// is claimed again once the lease runs out. One implementation per SQL dialect.
/// </summary>
public interface IAdminJobStore
{
    /// <summary>Queues a job; returns its id.</summary>
    Task<long> CreateAsync(string kind, DeadLetterSelection selection, string requestedBy, CancellationToken cancellationToken);

    /// <summary>Claims the oldest open job without a live lease (or job <paramref name="id"/> only), marking it running; null if none.</summary>
    Task<AdminJob?> ClaimAsync(long? id, string owner, TimeSpan lease, CancellationToken cancellationToken);

    /// <summary>Writes progress and renews the lease; false when <paramref name="owner"/> no longer holds the job.</summary>
    Task<bool> ProgressAsync(long id, string owner, long total, long done, long failed, TimeSpan lease, CancellationToken cancellationToken);

    /// <summary>Ends the job as <c>done</c> or <c>failed</c> (with <paramref name="error"/>) if <paramref name="owner"/> still holds it.</summary>
    Task FinishAsync(long id, string owner, string state, string? error, CancellationToken cancellationToken);

    /// <summary>The job, or null.</summary>
    Task<AdminJob?> GetAsync(long id, CancellationToken cancellationToken);

    /// <summary>Up to <paramref name="limit"/> jobs, newest first, below id <paramref name="before"/> (keyset; null: the newest).</summary>
    Task<IReadOnlyList<AdminJob>> ListAsync(long? before, int limit, CancellationToken cancellationToken);
}
