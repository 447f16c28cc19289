using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.Admin;
using Notifications.Admin.Operations;

namespace Notifications.OperatorConsole.Pages.Stories;

/// <summary>One notification's story (as <c>admin show</c>, through the same <see cref="NotificationStory"/>).</summary>
internal sealed class StoryModel(AdminContext admin, NotificationStory story) : PageModel
{
    // As many of a fan-out's deliveries as fit a page; the tally above them counts all.
    private const int Deliveries = 20;

    public long Id { get; private set; }

    /// <summary>Null when the database could not be read (<see cref="Error"/> says why).</summary>
    public NotificationStoryRecord? Story { get; private set; }

    public string? Error { get; private set; }

    public async Task OnGetAsync(long id, CancellationToken cancellationToken)
    {
        Id = id;
        try
        {
            Story = await admin.DatabaseAsync(() => story.ReadAsync(id, Deliveries, cancellationToken));
            if (Story.Status.IsUnknown)
            {
                Response.StatusCode = StatusCodes.Status404NotFound;
            }
        }
        catch (AdminException ex)
        {
            Error = ex.Message;
            Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
        }
    }
}
