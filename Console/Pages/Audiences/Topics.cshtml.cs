using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Audiences;

namespace Notifications.OperatorConsole.Pages.Audiences;

/// <summary>
/// The topics by name with their subscriber counts, as <c>admin topics list</c> reads them (the same store call): a keyset
/// page after a name, each count stopping above <see cref="IAudienceStore.SubscriberCountCap"/>.
/// </summary>
internal sealed class TopicsModel(AdminContext admin) : PageModel
{
    public const int PageSize = 50;

    /// <summary>The cursor: the name the page starts after.</summary>
    [BindProperty(SupportsGet = true)]
    public string? After { get; set; }

    public IReadOnlyList<TopicEntry> Topics { get; private set; } = [];

    public string? Error { get; private set; }

    public async Task OnGetAsync(CancellationToken cancellationToken)
    {
        // A cursor no topic name can follow from (longer than a name, control characters) starts from the first.
        string? after = After is { Length: <= AudienceRules.MaxTopicNameLength } a && !a.Any(char.IsControl) ? a : null;
        try
        {
            Topics = await admin.DatabaseAsync(() => admin.Audiences.ListTopicsAsync(after, PageSize, cancellationToken));
        }
        catch (AdminException ex)
        {
            Error = ex.Message;
        }
    }
}
