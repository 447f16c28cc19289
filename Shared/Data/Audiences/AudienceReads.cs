using System.Data.Common;
using Dapper;

namespace Notifications.Shared.Data.Audiences;

/// <summary>
/// The reads of an <see cref="IAudienceStore"/> that differ between the dialects only by their SQL: each store passes its
/// statements and a command factory (its timeout, the caller's token).
/// </summary>
internal static class AudienceReads
{
    /// <summary>The categories with their defaults (both read whole: categories are a short list an operator keeps).</summary>
    public static async Task<IReadOnlyList<AudienceCategory>> CategoriesAsync(
        DbConnection connection, string categoriesSql, string defaultsSql, Func<string, object?, CommandDefinition> command)
    {
        var categories = await connection.QueryAsync<(string Name, bool Critical, string? Description, DateTime UpdatedAt)>(command(categoriesSql, null));
        var byCategory = (await connection.QueryAsync<(string Category, string Channel, bool Enabled)>(command(defaultsSql, null)))
            .ToLookup(d => d.Category, StringComparer.Ordinal);
        return
        [
            .. categories.Select(c => new AudienceCategory(
                c.Name, c.Critical, c.Description,
                byCategory[c.Name].ToDictionary(d => d.Channel, d => d.Enabled, StringComparer.Ordinal), c.UpdatedAt)),
        ];
    }

    /// <summary>
    /// The subscriber of <paramref name="externalId"/> and its parts: the subscriber statement returns id, external_id, locale,
    /// time_zone, created_at, updated_at; the others take the internal <c>@Id</c>.
    /// </summary>
    public static async Task<SubscriberDetails?> SubscriberAsync(
        DbConnection connection, (string Subscriber, string ContactPoints, string Topics, string Preferences) sql, string externalId,
        Func<string, object?, CommandDefinition> command)
    {
        var found = await connection.QuerySingleOrDefaultAsync<(long Id, string ExternalId, string Locale, string? TimeZone, DateTime CreatedAt, DateTime UpdatedAt)?>(
            command(sql.Subscriber, new { Id = externalId }));
        if (found is not { } s)
        {
            return null;
        }

        var contactPoints = await connection.QueryAsync<ContactPointEntry>(command(sql.ContactPoints, new { s.Id }));
        var topics = await connection.QueryAsync<string>(command(sql.Topics, new { s.Id }));
        var preferences = await connection.QueryAsync<PreferenceEntry>(command(sql.Preferences, new { s.Id }));
        return new SubscriberDetails(s.ExternalId, s.Locale, s.TimeZone, s.CreatedAt, s.UpdatedAt, [.. contactPoints], [.. topics], [.. preferences]);
    }
}
