namespace Notifications.Consumer.Channels;

/// <summary>
/// One handler's senders, one per channel, made when the handler first sends through that channel (a handler that only
/// ever sends email opens no HTTP client) and disposed with the handler.
/// </summary>
internal sealed class HandlerSenders(ChannelRegistry channels) : IAsyncDisposable
{
    private readonly IChannelSender?[] _senders = new IChannelSender?[channels.All.Count];

    /// <summary>This handler's sender for <paramref name="channel"/>.</summary>
    public IChannelSender For(IChannel channel)
    {
        var all = channels.All;
        for (int i = 0; i < all.Count; i++)
        {
            if (ReferenceEquals(all[i], channel))
            {
                return _senders[i] ??= channel.CreateSender();
            }
        }

        throw new ArgumentException($"channel '{channel.Name}' is not registered", nameof(channel));
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var sender in _senders)
        {
            if (sender is not null)
            {
                await sender.DisposeAsync();
            }
        }
    }
}
