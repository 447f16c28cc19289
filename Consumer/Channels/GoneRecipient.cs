namespace Notifications.Consumer.Channels;

/// <summary>
/// A recipient to suppress because a send said it is gone for good (<see cref="IChannel.GoneFor"/>): its key (an address, a
/// push recipient), the reason (<c>hard_bounce</c>, <c>unregistered</c>) and the server's answer.
/// </summary>
internal sealed record GoneRecipient(string Key, string Reason, string Detail);
