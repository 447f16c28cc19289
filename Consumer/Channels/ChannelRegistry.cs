using Notifications.Shared.Contract;

namespace Notifications.Consumer.Channels;

/// <summary>The channels this consumer sends through, by the name in the outbox's <c>channel</c> column.</summary>
internal sealed class ChannelRegistry
{
    private readonly IChannel[] _channels;

    public ChannelRegistry(IEnumerable<IChannel> channels)
    {
        _channels = [.. channels];
        Email = Find(NotificationChannels.Email) ?? throw new InvalidOperationException("the email channel is not registered");
    }

    /// <summary>The email channel, which every consumer has.</summary>
    public IChannel Email { get; }

    /// <summary>Every channel.</summary>
    public IReadOnlyList<IChannel> All => _channels;

    /// <summary>The channel named <paramref name="name"/>, or null when this consumer has none of that name.</summary>
    public IChannel? Find(string name)
    {
        // A handful of channels: a scan beats a dictionary's hashing, and email (the common case) comes first.
        foreach (var channel in _channels)
        {
            if (channel.Name == name)
            {
                return channel;
            }
        }

        return null;
    }
}
