namespace Notifications.Shared.Data.Audiences;

/// <summary>
/// The subscribers' preferences as the consumer reads them before a send (db/*/025_audiences.sql, 029_preferences.sql;
/// docs/preferences.md), one implementation per SQL dialect, and the delivery-log record of a notification they stopped.
/// </summary>
public interface IPreferenceStore
{
    /// <summary>
    /// Who of the subscribers having <paramref name="address"/> as a contact point on <paramref name="channel"/> does not get
    /// <paramref name="category"/> there: by their own preference, or else by the category's default for the channel. Null
    /// when nobody (the address is nobody's, the category is critical or unknown, or every owner gets it). One indexed
    /// lookup: contact_point (channel, address), then the primary keys of preference, category and category_default.
    /// </summary>
    Task<OptOut?> FindOptOutAsync(string channel, string address, string category, CancellationToken cancellationToken);

    /// <summary>Records notification <paramref name="notification"/> as 'opted_out' with <paramref name="reason"/>; an id that has a row already keeps it.</summary>
    Task RecordOptedOutAsync(SentNotification notification, string reason, CancellationToken cancellationToken);
}
