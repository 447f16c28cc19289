using System.Data;
using System.Data.Common;
using Notifications.Shared.Contract;

namespace Notifications.Client;

/// <summary>
/// The registered <see cref="ISubscriberRegistry"/>: the shapes checked by <see cref="AudienceRules"/> (as the tables' checks
/// would), then the dialect's statements in the app's transaction. A subscriber is found by the app's id once per call.
/// </summary>
internal sealed class DbSubscriberRegistry(IOutboxDialect dialect, string schema) : ISubscriberRegistry
{
    private readonly RegistrySql _sql = dialect.Registry.Sql(schema);

    public async Task UpsertSubscriberAsync(DbTransaction transaction, Subscriber subscriber, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(subscriber);
        Refuse(AudienceRules.SubscriberId(subscriber.Id) ?? AudienceRules.Locale(subscriber.Locale) ?? AudienceRules.TimeZone(subscriber.TimeZone), nameof(subscriber));
        OutboxDialects.CheckTransaction(dialect, transaction);
        await using var command = Command(transaction, _sql.UpsertSubscriberSql);
        Add(command, "ExternalId", DbType.AnsiString, subscriber.Id);
        Add(command, "Locale", DbType.String, subscriber.Locale);
        Add(command, "TimeZone", DbType.String, subscriber.TimeZone);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    public Task AddDeviceAsync(DbTransaction transaction, string subscriberId, PushDevice device, CancellationToken cancellationToken = default) =>
        AddContactPointAsync(transaction, subscriberId, AudienceRules.Push, DeviceAddress(device), device.AppId, cancellationToken);

    public Task<bool> RemoveDeviceAsync(DbTransaction transaction, string subscriberId, PushDevice device, CancellationToken cancellationToken = default) =>
        RemoveContactPointAsync(transaction, subscriberId, AudienceRules.Push, DeviceAddress(device), cancellationToken);

    public Task AddEmailAsync(DbTransaction transaction, string subscriberId, string address, CancellationToken cancellationToken = default) =>
        AddContactPointAsync(transaction, subscriberId, AudienceRules.Email, EmailAddress(address), null, cancellationToken);

    public Task<bool> RemoveEmailAsync(DbTransaction transaction, string subscriberId, string address, CancellationToken cancellationToken = default) =>
        RemoveContactPointAsync(transaction, subscriberId, AudienceRules.Email, EmailAddress(address), cancellationToken);

    public async Task<bool> SubscribeAsync(DbTransaction transaction, string subscriberId, string topic, CancellationToken cancellationToken = default)
    {
        Refuse(AudienceRules.TopicName(topic), nameof(topic));
        long id = await FindSubscriberAsync(transaction, subscriberId, cancellationToken);
        // Two statements: under READ COMMITTED the second sees a topic another transaction made and committed while the first waited.
        await using (var ensure = Command(transaction, _sql.EnsureTopicSql))
        {
            Add(ensure, "Topic", DbType.AnsiString, topic);
            await ensure.ExecuteNonQueryAsync(cancellationToken);
        }

        await using var subscribe = Command(transaction, _sql.SubscribeSql);
        Add(subscribe, "SubscriberId", DbType.Int64, id);
        Add(subscribe, "Topic", DbType.AnsiString, topic);
        return await subscribe.ExecuteNonQueryAsync(cancellationToken) > 0;
    }

    public async Task<bool> UnsubscribeAsync(DbTransaction transaction, string subscriberId, string topic, CancellationToken cancellationToken = default)
    {
        Refuse(AudienceRules.TopicName(topic), nameof(topic));
        long id = await FindSubscriberAsync(transaction, subscriberId, cancellationToken);
        await using var command = Command(transaction, _sql.UnsubscribeSql);
        Add(command, "SubscriberId", DbType.Int64, id);
        Add(command, "Topic", DbType.AnsiString, topic);
        return await command.ExecuteNonQueryAsync(cancellationToken) > 0;
    }

    public async Task SetPreferenceAsync(
        DbTransaction transaction, string subscriberId, string category, string channel, bool enabled, CancellationToken cancellationToken = default)
    {
        Refuse(AudienceRules.CategoryName(category), nameof(category));
        Refuse(AudienceRules.Channel(channel), nameof(channel));
        long id = await FindSubscriberAsync(transaction, subscriberId, cancellationToken);
        await using (var find = Command(transaction, _sql.FindCategorySql))
        {
            Add(find, "Category", DbType.AnsiString, category);
            object? critical = await find.ExecuteScalarAsync(cancellationToken);
            if (critical is null or DBNull)
            {
                throw new InvalidOperationException($"There is no category '{category}': an operator adds it with 'scripts/admin categories put {category}'.");
            }

            if (Convert.ToBoolean(critical, System.Globalization.CultureInfo.InvariantCulture) && !enabled)
            {
                throw new InvalidOperationException($"Category '{category}' is critical: it cannot be opted out of (on {channel} or any channel).");
            }
        }

        await using var command = Command(transaction, _sql.SetPreferenceSql);
        Add(command, "SubscriberId", DbType.Int64, id);
        Add(command, "Category", DbType.AnsiString, category);
        Add(command, "Channel", DbType.AnsiString, channel);
        Add(command, "Enabled", DbType.Boolean, enabled);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    private async Task AddContactPointAsync(
        DbTransaction transaction, string subscriberId, string channel, string address, string? appId, CancellationToken cancellationToken)
    {
        Refuse(AudienceRules.AppId(appId), "device");
        long id = await FindSubscriberAsync(transaction, subscriberId, cancellationToken);
        await using var command = Command(transaction, _sql.AddContactPointSql);
        Add(command, "SubscriberId", DbType.Int64, id);
        Add(command, "Channel", DbType.AnsiString, channel);
        Add(command, "Address", DbType.String, address);
        Add(command, "AppId", DbType.String, appId);
        // A device is seen when the app registers it; an email address has no such moment.
        Add(command, "LastSeen", DbType.DateTimeOffset, channel == AudienceRules.Push ? DateTimeOffset.UtcNow : null);
        await command.ExecuteNonQueryAsync(cancellationToken);
    }

    private async Task<bool> RemoveContactPointAsync(
        DbTransaction transaction, string subscriberId, string channel, string address, CancellationToken cancellationToken)
    {
        long id = await FindSubscriberAsync(transaction, subscriberId, cancellationToken);
        await using var command = Command(transaction, _sql.RemoveContactPointSql);
        Add(command, "SubscriberId", DbType.Int64, id);
        Add(command, "Channel", DbType.AnsiString, channel);
        Add(command, "Address", DbType.String, address);
        return await command.ExecuteNonQueryAsync(cancellationToken) > 0;
    }

    // The subscriber's internal id; checks the id's shape and the transaction first.
    private async Task<long> FindSubscriberAsync(DbTransaction transaction, string subscriberId, CancellationToken cancellationToken)
    {
        Refuse(AudienceRules.SubscriberId(subscriberId), nameof(subscriberId));
        OutboxDialects.CheckTransaction(dialect, transaction);
        await using var command = Command(transaction, _sql.FindSubscriberSql);
        Add(command, "ExternalId", DbType.AnsiString, subscriberId);
        return await command.ExecuteScalarAsync(cancellationToken) is long id
            ? id
            : throw new InvalidOperationException($"There is no subscriber '{subscriberId}': add it with UpsertSubscriberAsync first (in this transaction or an earlier one).");
    }

    private static string DeviceAddress(PushDevice device)
    {
        ArgumentNullException.ThrowIfNull(device);
        return AudienceRules.PushAddress(device.Provider, device.Token, out string? error) ?? throw new ArgumentException(error, nameof(device));
    }

    private static string EmailAddress(string address) =>
        AudienceRules.EmailAddress(address, out string? error) ?? throw new ArgumentException(error, nameof(address));

    private static void Refuse(string? error, string paramName)
    {
        if (error is not null)
        {
            throw new ArgumentException(error, paramName);
        }
    }

    private static DbCommand Command(DbTransaction transaction, string sql)
    {
        var command = transaction.Connection!.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        return command;
    }

    private static void Add(DbCommand command, string name, DbType type, object? value) => OutboxValues.Add(command, name, type, value);
}
