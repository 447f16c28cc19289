using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Notifications.Admin;
using Notifications.OperatorConsole.Authentication;
using Notifications.Shared.Data;

namespace Notifications.OperatorConsole.Pages.Suppression;

/// <summary>
/// The suppression list: search by a key's prefix or the exact key, a bounded page at a time (keyset: the next page starts after
/// the last key shown), and the operator's removal with a reason, through <see cref="SuppressionOperations"/> as
/// <c>admin suppression remove --note</c> runs it. Whatever is typed, the answer is a page: entries or "not found".
/// </summary>
internal sealed class IndexModel(AdminContext admin, IAuthorizationService authorization, ILogger<IndexModel> logger)
    : ConsolePageModel(authorization, logger)
{
    [BindProperty(SupportsGet = true, Name = "q")]
    public string? Query { get; set; }

    [BindProperty(SupportsGet = true)]
    public bool Exact { get; set; }

    [BindProperty(SupportsGet = true)]
    public string? After { get; set; }

    public SuppressionPage Results { get; private set; } = SuppressionPage.Empty;

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        await ReadRoleAsync();
        Results = await ReadAsync(() => SuppressionOperations.SearchAsync(admin, Query, Exact, After, cancellationToken), SuppressionPage.Empty);
    }

    /// <summary>Removes one entry, the reason kept on it with who gave it (the operator rule applies: <see cref="OperatorActionFilter"/>).</summary>
    public async Task<IActionResult> OnPostRemoveAsync(string? key, string? reason, CancellationToken cancellationToken)
    {
        Notice = await ActAsync("suppression remove", () =>
            SuppressionKeys.TryNormalize(key, out string? invalid) is not { } normalized ? throw new AdminException(invalid!, ExitCodes.Usage)
            : string.IsNullOrWhiteSpace(reason) ? throw new AdminException($"give a reason for removing {normalized}", ExitCodes.Usage)
            : SuppressionOperations.RemoveAsync(admin, normalized, $"{reason.Trim()} (by {UserName}, console)", cancellationToken));
        return RedirectToPage(new { q = Query, exact = Exact });
    }
}
