using Notifications.Admin;
using Notifications.Shared.Data.Operations;

namespace Notifications.OperatorConsole.Pages.DeadLetters;

/// <summary>
/// Queues a bulk requeue or purge for the dead-letter pages (a group, or the ids ticked on a group's page) as the admin tool's
/// <c>requeue-group</c> / <c>purge-group</c> do: one <c>admin_job</c> row, run by the console's job service; logged with who asked.
/// </summary>
internal sealed class DeadLetterJobQueue(AdminContext admin, IAdminJobStore jobs, ILogger<DeadLetterJobQueue> logger)
{
    /// <summary>The job's id, or null and why it was not queued.</summary>
    public async Task<(long? Id, string? Problem)> QueueAsync(string kind, DeadLetterSelection selection, string user, CancellationToken cancellationToken)
    {
        try
        {
            long id = await admin.DatabaseAsync(() => jobs.CreateAsync(kind, selection, user, cancellationToken));
            ConsoleLog.Action(logger, user, $"{kind} of {selection}", $"job {id} queued");
            return (id, null);
        }
        catch (AdminException ex)
        {
            ConsoleLog.Action(logger, user, $"{kind} of {selection}", $"not queued: {ex.Message}");
            return (null, $"The {kind} of {selection} was not queued: {ex.Message}");
        }
    }
}
