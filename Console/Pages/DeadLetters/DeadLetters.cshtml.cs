using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Shared.Data.Operations;

namespace Notifications.OperatorConsole.Pages.DeadLetters;

/// <summary>
/// Dead letters by reason class (as <c>admin dead-letters groups</c>, through the same store), a keyset page at a time; an
/// operator requeues or purges a whole group as a bulk job (as <c>requeue-group</c> / <c>purge-group</c>), which the console's
/// job service runs whether or not the page stays open.
/// </summary>
internal sealed class DeadLettersModel(AdminContext admin, IDeadLetterGroupStore groups, DeadLetterJobQueue queue) : PageModel
{
    public const int PageSize = 50;

    /// <summary>The cursor: the reason class the page starts after.</summary>
    [BindProperty(SupportsGet = true)]
    public string? After { get; set; }

    public IReadOnlyList<DeadLetterGroup> Groups { get; private set; } = [];

    public string? Error { get; private set; }

    [TempData]
    public string? Notice { get; set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        try
        {
            Groups = await admin.DatabaseAsync(() => groups.ListGroupsAsync(After, PageSize, cancellationToken));
        }
        catch (AdminException ex)
        {
            Error = ex.Message;
        }
    }

    /// <summary>Queues the requeue of the group (the operator rule applies: <c>OperatorActionFilter</c>).</summary>
    public Task<IActionResult> OnPostRequeueAsync(string? group, CancellationToken cancellationToken) =>
        QueueAsync(AdminJobKinds.Requeue, group, cancellationToken);

    /// <summary>Queues the purge of the group, only when the operator ticked that it deletes for good (as purge-group's question).</summary>
    public Task<IActionResult> OnPostPurgeAsync(string? group, bool confirm, CancellationToken cancellationToken)
    {
        if (!confirm)
        {
            Notice = "Nothing was deleted: tick \"delete for good\" to purge the group.";
            return Task.FromResult<IActionResult>(RedirectToPage(new { After }));
        }

        return QueueAsync(AdminJobKinds.Purge, group, cancellationToken);
    }

    private async Task<IActionResult> QueueAsync(string kind, string? group, CancellationToken cancellationToken)
    {
        // The unclassified group's class is the empty string: a missing field is that group, not an error.
        var (id, problem) = await queue.QueueAsync(kind, DeadLetterSelection.Group(group ?? ""), User.Identity?.Name ?? "?", cancellationToken);
        if (id is null)
        {
            Notice = problem;
            return RedirectToPage(new { After });
        }

        return Redirect($"/jobs/{id}");
    }
}
