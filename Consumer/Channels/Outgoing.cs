namespace Notifications.Consumer.Channels;

/// <summary>
/// A notification made ready by its channel (<see cref="IChannel.PrepareAsync"/>): what its sender sends. The pipeline
/// reads only the id (the delivery log's key) and when the business transaction created it (the latency).
/// </summary>
internal abstract record Outgoing(long NotificationId, DateTimeOffset CreatedAt);
