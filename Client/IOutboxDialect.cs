using System.Data.Common;

namespace Notifications.Client;

/// <summary>
/// One database's SQL for the client: implemented by the provider packages (<c>Notifications.Client.PostgreSql</c>,
/// <c>Notifications.Client.SqlServer</c>), which alone reference a driver. The values come from
/// <see cref="OutboxValues"/>, the same for every dialect.
/// </summary>
internal interface IOutboxDialect
{
    /// <summary>The driver's connection type this dialect speaks through (<c>NpgsqlConnection</c>, <c>SqlConnection</c>).</summary>
    Type ConnectionType { get; }

    /// <summary>The package that holds this dialect, named in errors.</summary>
    string PackageId { get; }

    /// <summary>Inserts <paramref name="values"/> in <paramref name="transaction"/>; returns the notification's id (the first one's for a repeated idempotency key).</summary>
    Task<long> EnqueueAsync(DbTransaction transaction, OutboxValues values, string schema, CancellationToken cancellationToken);

    /// <summary>The audience registry's statements in this database (<see cref="DbSubscriberRegistry"/>).</summary>
    IRegistryDialect Registry { get; }

    /// <summary>
    /// The query of the schema's <c>notification_status(@Id)</c> function: one row of notification_id, state, at, attempts,
    /// not_before, reason, detail (read by <see cref="NotificationStatusReader"/>).
    /// </summary>
    string StatusSql(string schema);

    /// <summary>The query of one template's versions for the check at enqueue: locale, version, variables where name = @Name (<see cref="TemplateCatalog"/>).</summary>
    string TemplateVariablesSql(string schema);
}
