namespace Notifications.Client;

/// <summary>
/// One database's SQL for <see cref="DbSubscriberRegistry"/>, reached through <see cref="IOutboxDialect.Registry"/>: the
/// provider packages implement it beside their outbox dialect.
/// </summary>
internal interface IRegistryDialect
{
    /// <summary>The statements for tables in <paramref name="schema"/> (a checked plain identifier).</summary>
    RegistrySql Sql(string schema);
}
