using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Microsoft.Extensions.Options;
using Notifications.Admin;
using Notifications.Admin.Status;
using Notifications.OperatorConsole.Authentication;
using Notifications.OperatorConsole.Overview;

namespace Notifications.OperatorConsole.Pages;

/// <summary>
/// The overview: what <c>admin status</c> shows, read through the same <see cref="StatusReader"/>, and the configured workers'
/// readiness and circuit breakers (<see cref="WorkerProbe"/>), refreshed once a second by
/// the page's script (the <c>Figures</c> handler renders the partial alone); and the operator's cleanup action.
/// </summary>
internal sealed class IndexModel(
    AdminContext admin, StatusConnection broker, WorkerProbe workers, IAuthorizationService authorization, IOptions<ConsoleOptions> options, ILogger<IndexModel> logger)
    : PageModel
{
    public OverviewFigures Figures { get; private set; } = null!;

    public bool IsOperator { get; private set; }

    [TempData]
    public string? Notice { get; set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        Figures = await ReadAsync(cancellationToken);
        IsOperator = (await authorization.AuthorizeAsync(User, ConsolePolicies.Operator)).Succeeded;
    }

    public async Task<PartialViewResult> OnGetFiguresAsync(CancellationToken cancellationToken) =>
        Partial("_Figures", await ReadAsync(cancellationToken));

    /// <summary>The retention cleanup, as <c>admin cleanup</c> runs it (the operator rule applies: <see cref="OperatorActionFilter"/>).</summary>
    public async Task<IActionResult> OnPostCleanupAsync(CancellationToken cancellationToken)
    {
        try
        {
            var result = await admin.DatabaseAsync(() => admin.Retention.RunAsync(cancellationToken));
            Notice = FormattableString.Invariant(
                $"Retention cleanup: {result.DeliveryLogRows:N0} delivery-log row(s), {result.DeadLetterRows:N0} dead-letter row(s), {result.IdempotencyKeys:N0} idempotency key(s) deleted.");
        }
        catch (AdminException ex)
        {
            Notice = $"Retention cleanup failed: {ex.Message}";
        }

        ConsoleLog.Action(logger, User.Identity?.Name ?? "?", "retention cleanup", Notice);
        return RedirectToPage();
    }

    // The workers' endpoints are asked while the database and broker answer: a silent worker costs its 300 ms at most, once.
    private async Task<OverviewFigures> ReadAsync(CancellationToken cancellationToken)
    {
        var readings = workers.ReadAsync(cancellationToken);
        var report = await StatusReader.ReadAsync(admin, options.Value.DeliveryWindow, broker.GetAsync, cancellationToken);
        return new OverviewFigures(report, await readings);
    }
}
