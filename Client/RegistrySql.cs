namespace Notifications.Client;

/// <summary>
/// The registry's statements in one dialect. Parameters: @ExternalId, @Locale, @TimeZone (subscriber); @SubscriberId (the
/// internal id FindSubscriberSql returns); @Channel, @Address, @AppId, @LastSeen (contact point); @Topic; @Category, @Enabled.
/// </summary>
internal sealed record RegistrySql(
    string UpsertSubscriberSql,
    string FindSubscriberSql,
    string AddContactPointSql,
    string RemoveContactPointSql,
    string EnsureTopicSql,
    string SubscribeSql,
    string UnsubscribeSql,
    string FindCategorySql,
    string SetPreferenceSql);
