using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Admin.Operations;
using Notifications.OperatorConsole.Overview;
using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole.Pages.Audiences;

/// <summary>
/// Live connections: each gateway of <c>Console:Workers</c> as its <c>/presence</c> answers (its connected subscribers, within
/// 300 ms), the subscribers connected anywhere by id, a page at a time after a cursor, each with its live rows still pending
/// (<c>live_pending</c>, one statement for the page, counted up to <see cref="SubscriberLookup.PendingCap"/>).
/// </summary>
internal sealed class LiveModel(AdminContext admin, WorkerProbe workers) : PageModel
{
    public const int PageSize = 100;

    /// <summary>The cursor: the subscriber id the page starts after.</summary>
    [BindProperty(SupportsGet = true)]
    public string? After { get; set; }

    public IReadOnlyList<GatewayPresence> Gateways { get; private set; } = [];

    /// <summary>The page's subscribers, with their connections over every gateway that listed them.</summary>
    public IReadOnlyList<PresenceReading> Connected { get; private set; } = [];

    public IReadOnlyDictionary<string, int> Pending { get; private set; } = new Dictionary<string, int>();

    public bool HasMore { get; private set; }

    public string? Error { get; private set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        Gateways = await workers.ReadPresenceAsync(cancellationToken);
        var connected = Gateways.SelectMany(g => g.Listed)
            .GroupBy(p => p.Subscriber, StringComparer.Ordinal)
            .Select(g => new PresenceReading(g.Key, g.Sum(p => p.Connections)))
            .Where(p => After is null || string.CompareOrdinal(p.Subscriber, After) > 0)
            .OrderBy(p => p.Subscriber, StringComparer.Ordinal)
            .Take(PageSize + 1)
            .ToList();
        HasMore = connected.Count > PageSize;
        Connected = connected.Take(PageSize).ToList();
        if (Connected.Count == 0)
        {
            return;
        }

        try
        {
            Pending = await admin.DatabaseAsync(() => admin.Live.CountPendingAsync([.. Connected.Select(p => p.Subscriber)], SubscriberLookup.PendingCap, cancellationToken));
        }
        catch (AdminException ex)
        {
            Error = ex.Message;
        }
    }
}
