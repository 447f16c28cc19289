using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;
using Notifications.Shared.Data.Operations;

namespace Notifications.Admin.Operations;

/// <summary>
/// One notification's story, the operation behind <c>admin show</c>, <c>admin find</c> and the console's story page: find
/// notifications by id, idempotency key, recipient or subscriber (keyset pages, highest id first), and read one's story.
/// </summary>
internal sealed class NotificationStory(
    INotificationStatusStore status, INotificationSearchStore search, ILivePendingStore live, ILiveBroadcastStore broadcasts, IAudienceStore audiences)
{
    /// <summary>
    /// Up to <paramref name="limit"/> (1-100) notifications matching <paramref name="text"/> as <paramref name="kind"/> (null: every
    /// kind the text may be), below id <paramref name="before"/>. Never throws for the text's shape: a text that cannot match
    /// answers with a message and no query.
    /// </summary>
    public async Task<NotificationSearchResult> FindAsync(string text, NotificationSearchKind? kind, long? before, int limit, CancellationToken cancellationToken)
    {
        if (NotificationQuery.Refusal(text) is { } refusal)
        {
            return NotificationSearchResult.None(refusal);
        }

        limit = Math.Clamp(limit, 1, NotificationQuery.MaxPage);
        var hits = new List<NotificationHit>();
        foreach (var k in NotificationQuery.KindsFor(text, kind))
        {
            hits.AddRange(k == NotificationSearchKind.Id
                ? await FindIdAsync(text, before, cancellationToken)
                : await search.FindAsync(k, text, before, limit, cancellationToken));
        }

        var page = hits.DistinctBy(h => h.NotificationId).OrderByDescending(h => h.NotificationId).Take(limit).ToList();
        return page.Count == 0
            ? NotificationSearchResult.None($"not found: no notification{(kind is { } only ? $" with that {Describe(only)}" : "")} matches")
            : new NotificationSearchResult(page, page.Count == limit ? page[^1].NotificationId : null, null);
    }

    /// <summary>
    /// The story of notification <paramref name="id"/>, with the first <paramref name="deliveries"/> of a fan-out's deliveries or of a
    /// broadcast's receipts.
    /// </summary>
    public async Task<NotificationStoryRecord> ReadAsync(long id, int deliveries, CancellationToken cancellationToken)
    {
        var state = await status.GetAsync(id, cancellationToken);
        var records = await search.ReadAsync(id, cancellationToken);
        var pending = await live.FindAsync(id, cancellationToken);
        var report = await audiences.ListDeliveriesAsync(id, deliveries, cancellationToken);
        var broadcast = await broadcasts.ReportAsync(id, deliveries, cancellationToken);
        return StorySteps.Tell(state, records, pending, report) with { Broadcast = broadcast };
    }

    private async Task<IReadOnlyList<NotificationHit>> FindIdAsync(string text, long? before, CancellationToken cancellationToken) =>
        NotificationQuery.AsId(text) is { } id && id < (before ?? long.MaxValue) && !(await status.GetAsync(id, cancellationToken)).IsUnknown
            ? [new NotificationHit(id, "id")]
            : [];

    private static string Describe(NotificationSearchKind kind) => kind switch
    {
        NotificationSearchKind.Id => "id",
        NotificationSearchKind.IdempotencyKey => "idempotency key",
        NotificationSearchKind.Recipient => "recipient",
        _ => "subscriber",
    };
}
