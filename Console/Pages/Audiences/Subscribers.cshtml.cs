using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Admin.Operations;

namespace Notifications.OperatorConsole.Pages.Audiences;

/// <summary>
/// A subscriber found by id, email address or push recipient (<see cref="SubscriberLookup"/>): its contact points (alive or
/// dead, and why), topics, preferences, as <c>admin subscribers show</c> reads them, and its live notifications still pending.
/// A GET, so a viewer may search and a result is a link.
/// </summary>
internal sealed class SubscribersModel(AdminContext admin) : PageModel
{
    [BindProperty(SupportsGet = true, Name = "q")]
    public string? Text { get; set; }

    /// <summary>Null until a search was asked for.</summary>
    public SubscriberSearchResult? Result { get; private set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        if (Text is null)
        {
            return;
        }

        try
        {
            Result = await admin.DatabaseAsync(() => admin.Subscribers.SearchAsync(Text, cancellationToken));
        }
        catch (AdminException ex)
        {
            Result = SubscriberSearchResult.NotFound(ex.Message);
        }
    }
}
