using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;

namespace Notifications.Admin.Operations;

/// <summary>
/// One subscriber found by what an operator has at hand: the app's id (as <c>admin subscribers show</c>, through the same
/// <see cref="IAudienceStore.FindSubscriberAsync"/>), or an email address or push recipient (<c>fcm:…</c>, <c>apns:…</c>) of one
/// of its contact points; with its live notifications still pending. Text no id or address can be finds nothing without a query.
/// </summary>
internal sealed class SubscriberLookup(IAudienceStore audiences, ILivePendingStore live)
{
    /// <summary>The most subscribers one address lists (a shared address, a family's device).</summary>
    public const int MaxMatches = 20;

    /// <summary>Pending live rows are counted up to this (the page says "1,000+").</summary>
    public const int PendingCap = 1_000;

    public async Task<SubscriberSearchResult> SearchAsync(string? text, CancellationToken cancellationToken)
    {
        string typed = (text ?? "").Trim();
        if (typed.Length == 0)
        {
            return SubscriberSearchResult.NotFound("type a subscriber id, an email address or a push recipient (fcm:… or apns:…)");
        }

        if (typed.Length > AudienceRules.MaxAddressLength || typed.Any(char.IsControl))
        {
            return SubscriberSearchResult.NotFound("no subscriber id or address is like that");
        }

        if (AudienceRules.SubscriberId(typed) is null && await audiences.FindSubscriberAsync(typed, cancellationToken) is { } byId)
        {
            return await FoundAsync(byId, cancellationToken);
        }

        // An email address is kept lower-cased; a push token exactly as the provider gave it (its provider lower-cased).
        string address = typed.Contains('@', StringComparison.Ordinal) ? typed.ToLowerInvariant() : typed;
        var ids = await audiences.FindSubscribersByAddressAsync(address, MaxMatches + 1, cancellationToken);
        if (ids.Count == 1 && await audiences.FindSubscriberAsync(ids[0], cancellationToken) is { } byAddress)
        {
            return await FoundAsync(byAddress, cancellationToken);
        }

        return ids.Count == 0
            ? SubscriberSearchResult.NotFound($"no subscriber has the id or address '{typed}'")
            : new SubscriberSearchResult(null, 0, ids.Take(MaxMatches).ToList(), ids.Count > MaxMatches, null);
    }

    private async Task<SubscriberSearchResult> FoundAsync(SubscriberDetails subscriber, CancellationToken cancellationToken)
    {
        var pending = await live.PendingAsync(subscriber.Id, PendingCap + 1, cancellationToken);
        return new SubscriberSearchResult(subscriber, pending.Count, [], false, null);
    }
}
