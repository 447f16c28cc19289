using System.Globalization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Shared.Data.Operations;

namespace Notifications.OperatorConsole.Pages.DeadLetters;

/// <summary>
/// One group's dead letters, newest first, a keyset page at a time; an operator ticks some and requeues or purges them as a
/// bulk job of their notification ids (as <c>requeue-group --ids</c> / <c>purge-group --ids</c>): the same job kind as a whole
/// group's, so two operators on the same letters take each once (the second job finds them gone and counts them not found).
/// </summary>
internal sealed class GroupModel(AdminContext admin, IDeadLetterGroupStore groups, DeadLetterJobQueue queue) : PageModel
{
    public const int PageSize = 50;

    /// <summary>The most ids one selection takes (a page's worth, many times over).</summary>
    public const int MaxSelection = 1_000;

    /// <summary>The group's reason class ("" the unclassified group).</summary>
    [BindProperty(SupportsGet = true)]
    public string? Reason { get; set; }

    /// <summary>The cursor: the page starts before this instant (round-trip format) and row id.</summary>
    [BindProperty(SupportsGet = true)]
    public string? Before { get; set; }

    [BindProperty(SupportsGet = true)]
    public long BeforeId { get; set; }

    public IReadOnlyList<DeadLetterEntry> Letters { get; private set; } = [];

    public string? Error { get; private set; }

    [TempData]
    public string? Notice { get; set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        // A cursor that is not an instant starts from the newest: a hand-edited link still answers a page.
        DateTimeOffset? before = DateTimeOffset.TryParse(Before, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind, out var at) ? at.ToUniversalTime() : null;
        // Text no reason class can be (longer than the column, control characters) finds nothing without a query.
        string reason = Reason ?? "";
        if (reason.Length > DeadLetterReasonClass.MaxLength || reason.Any(char.IsControl))
        {
            return;
        }

        try
        {
            Letters = await admin.DatabaseAsync(() => groups.ListLettersAsync(reason, before, BeforeId, PageSize, cancellationToken));
        }
        catch (AdminException ex)
        {
            Error = ex.Message;
        }
    }

    /// <summary>Queues the requeue of the ticked letters (the operator rule applies: <c>OperatorActionFilter</c>).</summary>
    public Task<IActionResult> OnPostRequeueSelectedAsync(long[] ids, CancellationToken cancellationToken) =>
        QueueAsync(AdminJobKinds.Requeue, ids, cancellationToken);

    /// <summary>Queues the purge of the ticked letters, only with "delete for good" ticked.</summary>
    public Task<IActionResult> OnPostPurgeSelectedAsync(long[] ids, bool confirm, CancellationToken cancellationToken)
    {
        if (!confirm)
        {
            Notice = "Nothing was deleted: tick \"delete for good\" to purge the selected dead letters.";
            return Task.FromResult<IActionResult>(Back());
        }

        return QueueAsync(AdminJobKinds.Purge, ids, cancellationToken);
    }

    private async Task<IActionResult> QueueAsync(string kind, long[] ids, CancellationToken cancellationToken)
    {
        var distinct = ids.Where(id => id > 0).Distinct().ToList();
        if (distinct.Count is 0 or > MaxSelection)
        {
            Notice = distinct.Count == 0 ? "Nothing selected: tick the dead letters first." : $"At most {MaxSelection} dead letters at a time; nothing was queued.";
            return Back();
        }

        var (id, problem) = await queue.QueueAsync(kind, DeadLetterSelection.Ids(distinct), User.Identity?.Name ?? "?", cancellationToken);
        if (id is null)
        {
            Notice = problem;
            return Back();
        }

        return Redirect($"/jobs/{id}");
    }

    private RedirectToPageResult Back() => RedirectToPage(new { Reason, Before, BeforeId });
}
