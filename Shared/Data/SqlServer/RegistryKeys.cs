using Dapper;
using Notifications.Shared.Contract;

namespace Notifications.Shared.Data.SqlServer;

/// <summary>
/// The audience registry's varchar keys as SQL Server parameters (DbString IsAnsi, the columns' type and length,
/// db/sqlserver/025_audiences.sql), so the keys are sought without converting the columns.
/// </summary>
internal static class RegistryKeys
{
    public static DbString SubscriberId(string externalId) => new() { Value = externalId, IsAnsi = true, Length = AudienceRules.MaxSubscriberIdLength };

    public static DbString Category(string category) => new() { Value = category, IsAnsi = true, Length = AudienceRules.MaxCategoryNameLength };

    /// <summary>A contact point's or preference's channel: varchar(8).</summary>
    public static DbString Channel(string channel) => new() { Value = channel, IsAnsi = true, Length = 8 };
}
