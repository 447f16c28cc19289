namespace Notifications.Shared.Data.Audiences;

/// <summary>
/// The subscribers' preferences as the workers use them (db/*/025_audiences.sql, 029_preferences.sql; docs/preferences.md),
/// one implementation per SQL dialect: the consumer's read before a send and its delivery-log record of a notification they
/// stopped; the unsubscribe process's opt-out by a link.
/// </summary>
public interface IPreferenceStore
{
    /// <summary>
    /// Who of the subscribers having <paramref name="address"/> as a contact point on <paramref name="channel"/> does not get
    /// <paramref name="category"/> there: by their own preference, or else by the category's default for the channel. Null
    /// when nobody (the address is nobody's, the category is critical or unknown, or every owner gets it). One indexed
    /// lookup: contact_point (channel, address), then the primary keys of preference, category and category_default. On the
    /// live channel (no contact point) <paramref name="address"/> is the subscriber's own id: whether that subscriber does.
    /// </summary>
    Task<OptOut?> FindOptOutAsync(string channel, string address, string category, CancellationToken cancellationToken);

    /// <summary>Records notification <paramref name="notification"/> as 'opted_out' with <paramref name="reason"/>; an id that has a row already keeps it.</summary>
    Task RecordOptedOutAsync(SentNotification notification, string reason, CancellationToken cancellationToken);

    /// <summary>
    /// An unsubscribe link of a mail with <paramref name="category"/>: every subscriber having <paramref name="address"/> as a
    /// contact point on <paramref name="channel"/> opts out of the category there (db/*/repeatable/30_opt_out_by_link.sql).
    /// Returns how many subscribers that covered: 0 when nobody holds the address or the category is critical or unknown.
    /// </summary>
    Task<int> OptOutByLinkAsync(string channel, string address, string category, CancellationToken cancellationToken);
}
