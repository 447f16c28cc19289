using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Shared.Data.Operations;

namespace Notifications.OperatorConsole.Pages.Jobs;

/// <summary>The bulk jobs, newest first, a keyset page at a time (as <c>admin dead-letters jobs</c>).</summary>
internal sealed class JobsModel(AdminContext admin, IAdminJobStore jobs) : PageModel
{
    public const int PageSize = 20;

    /// <summary>The cursor: jobs below this id.</summary>
    [BindProperty(SupportsGet = true)]
    public long? Before { get; set; }

    public IReadOnlyList<AdminJob> Jobs { get; private set; } = [];

    public string? Error { get; private set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        try
        {
            Jobs = await admin.DatabaseAsync(() => jobs.ListAsync(Before, PageSize, cancellationToken));
        }
        catch (AdminException ex)
        {
            Error = ex.Message;
        }
    }
}
