using System.Data.Common;

namespace Notifications.Client;

/// <summary>
/// The audience registry (docs/audiences.md): subscribers, their contact points (every device and address of a person),
/// their topics and their preferences, written in the app's own transaction like the outbox, so they change exactly when
/// the business change commits. Registered by <see cref="NotificationsClientServiceCollectionExtensions.AddNotificationsClient"/>.
/// </summary>
/// <remarks>
/// Bad shapes (<see cref="ArgumentException"/>) are refused before the database is asked, with the rule that failed. A
/// subscriber must be upserted before anything is attached to it (<see cref="InvalidOperationException"/> otherwise).
/// </remarks>
public interface ISubscriberRegistry
{
    /// <summary>Creates the subscriber, or updates its locale and time zone.</summary>
    Task UpsertSubscriberAsync(DbTransaction transaction, Subscriber subscriber, CancellationToken cancellationToken = default);

    /// <summary>
    /// Adds a push device to <paramref name="subscriberId"/>; a device added again stays one device, seen now (and alive again
    /// if it was marked dead; a suppression entry of its token stays until an operator removes it).
    /// </summary>
    Task AddDeviceAsync(DbTransaction transaction, string subscriberId, PushDevice device, CancellationToken cancellationToken = default);

    /// <summary>Removes a push device of <paramref name="subscriberId"/>; false if it had none such.</summary>
    Task<bool> RemoveDeviceAsync(DbTransaction transaction, string subscriberId, PushDevice device, CancellationToken cancellationToken = default);

    /// <summary>Adds an email address (kept lower-case) to <paramref name="subscriberId"/>; an address added again stays one.</summary>
    Task AddEmailAsync(DbTransaction transaction, string subscriberId, string address, CancellationToken cancellationToken = default);

    /// <summary>Removes an email address of <paramref name="subscriberId"/>; false if it had none such.</summary>
    Task<bool> RemoveEmailAsync(DbTransaction transaction, string subscriberId, string address, CancellationToken cancellationToken = default);

    /// <summary>Subscribes <paramref name="subscriberId"/> to <paramref name="topic"/> (made if new); false if it was subscribed already.</summary>
    Task<bool> SubscribeAsync(DbTransaction transaction, string subscriberId, string topic, CancellationToken cancellationToken = default);

    /// <summary>Unsubscribes <paramref name="subscriberId"/> from <paramref name="topic"/>; false if it was not subscribed.</summary>
    Task<bool> UnsubscribeAsync(DbTransaction transaction, string subscriberId, string topic, CancellationToken cancellationToken = default);

    /// <summary>
    /// Opts <paramref name="subscriberId"/> in or out of <paramref name="category"/> on <paramref name="channel"/> (<c>email</c>,
    /// <c>push</c>). The category must exist (an operator's <c>scripts/admin categories put</c>); a critical one refuses an opt-out.
    /// </summary>
    /// <exception cref="InvalidOperationException">No such subscriber or category, or an opt-out of a critical category.</exception>
    Task SetPreferenceAsync(
        DbTransaction transaction, string subscriberId, string category, string channel, bool enabled, CancellationToken cancellationToken = default);
}
