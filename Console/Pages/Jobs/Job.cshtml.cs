using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Shared.Data.Operations;

namespace Notifications.OperatorConsole.Pages.Jobs;

/// <summary>
/// One bulk job's progress, as its <c>admin_job</c> row holds it: the page reads the row, not the process running the job, so
/// it shows the same after closing and reopening, and whichever replica runs it. The <c>Progress</c> handler renders the
/// partial alone for the page's once-a-second refresh.
/// </summary>
internal sealed class JobModel(AdminContext admin, IAdminJobStore jobs) : PageModel
{
    public AdminJob Job { get; private set; } = null!;

    public async Task<IActionResult> OnGetAsync(long id, CancellationToken cancellationToken) =>
        await ReadAsync(id, cancellationToken) is { } job ? Found(job) : NotFound();

    public async Task<IActionResult> OnGetProgressAsync(long id, CancellationToken cancellationToken) =>
        await ReadAsync(id, cancellationToken) is { } job ? Partial("_JobProgress", job) : NotFound();

    private IActionResult Found(AdminJob job)
    {
        Job = job;
        return Page();
    }

    private async Task<AdminJob?> ReadAsync(long id, CancellationToken cancellationToken) =>
        await admin.DatabaseAsync(() => jobs.GetAsync(id, cancellationToken));
}
