using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Admin.Operations;
using Notifications.Shared.Data.Operations;

namespace Notifications.OperatorConsole.Pages.Stories;

/// <summary>
/// The search for notifications (as <c>admin find</c>, through the same <see cref="NotificationStory"/>): by id, idempotency
/// key, recipient or subscriber, newest first, a keyset page at a time. A GET, so a viewer may search and a result is a link.
/// </summary>
internal sealed class SearchModel(AdminContext admin, NotificationStory story) : PageModel
{
    public const int PageSize = 20;

    /// <summary>The kinds the form offers, by the value the query string carries.</summary>
    public static readonly IReadOnlyDictionary<string, NotificationSearchKind> Kinds = new Dictionary<string, NotificationSearchKind>(StringComparer.Ordinal)
    {
        ["id"] = NotificationSearchKind.Id,
        ["key"] = NotificationSearchKind.IdempotencyKey,
        ["recipient"] = NotificationSearchKind.Recipient,
        ["subscriber"] = NotificationSearchKind.Subscriber,
    };

    [BindProperty(SupportsGet = true, Name = "q")]
    public string? Text { get; set; }

    [BindProperty(SupportsGet = true)]
    public string? Kind { get; set; }

    /// <summary>The cursor: ids below it (an unreadable value binds to null, the first page).</summary>
    [BindProperty(SupportsGet = true)]
    public long? Before { get; set; }

    /// <summary>Null until a search was asked for.</summary>
    public NotificationSearchResult? Result { get; private set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        if (Text is null)
        {
            return;
        }

        if (Kind is { Length: > 0 } && !Kinds.ContainsKey(Kind))
        {
            Result = NotificationSearchResult.None("not found: search by id, key, recipient or subscriber");
            return;
        }

        NotificationSearchKind? kind = Kind is { Length: > 0 } ? Kinds[Kind] : null;
        try
        {
            Result = await admin.DatabaseAsync(() => story.FindAsync(Text, kind, Before, PageSize, cancellationToken));
        }
        catch (AdminException ex)
        {
            Result = NotificationSearchResult.None(ex.Message);
        }
    }
}
