using Notifications.Shared.Contract;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;

namespace Notifications.Consumer.Preferences;

/// <summary>
/// Whether a notification with a category may go to its recipient (docs/preferences.md): asked of the database, one indexed
/// lookup per notification that has a category, no copy in memory. An opt-out holds from the moment the app's transaction
/// commits (a person who just turned marketing off gets not even the mail queued a second later), and rows without a category
/// (all of them before 029) pay nothing. Only the channels the registry knows are looked at (email and push by their contact
/// points, live by its subscriber): a webhook's recipient is an endpoint, nobody's address.
/// </summary>
internal sealed class PreferenceCheck(IPreferenceStore store)
{
    /// <summary>The delivery log's reason <paramref name="message"/> is not sent, or null if it may go.</summary>
    public async Task<string?> OptedOutAsync(NotificationMessage message, CancellationToken cancellationToken)
    {
        // A broadcast's subscribers are the gateways' to check, each against its own preference.
        if (message.Category is not { } category || RegistryChannel(message.ChannelName) is not { } channel || message.LiveBroadcast == true)
        {
            return null;
        }

        // The registry keeps addresses as the suppression list keys them: an email lower-cased, a push token exact; a live
        // notification's recipient is the subscriber itself.
        string address = channel == NotificationChannels.Live ? message.Recipient! : SuppressionKeys.ForRecipient(message.Recipient!);
        var optOut = await store.FindOptOutAsync(channel, address, category, cancellationToken);
        return optOut?.Reason(category, channel);
    }

    /// <summary>Records <paramref name="message"/> as 'opted_out' with <paramref name="reason"/> (a row the log has already stays).</summary>
    public Task RecordAsync(NotificationMessage message, int attempt, string reason, CancellationToken cancellationToken) =>
        store.RecordOptedOutAsync(new SentNotification(message.Id, message.CreatedAt == default ? null : message.CreatedAt, attempt), reason, cancellationToken);

    // The registry names its channels as the wire does (contact_point.channel, preference.channel: 'email', 'push', 'live').
    private static string? RegistryChannel(string channel) =>
        channel is NotificationChannels.Email or NotificationChannels.Push or NotificationChannels.Live ? channel : null;
}
