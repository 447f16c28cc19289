namespace Notifications.Consumer.Channels.Email;

/// <summary>
/// Stands in for a mail server with a fixed latency, so the pipeline's throughput can be measured
/// without one (the original experiment's "10 ms simulated send").
/// </summary>
internal sealed class SimulatedEmailSender(TimeSpan delay) : IEmailSender
{
    public Task SendAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(message);
        return Task.Delay(delay, cancellationToken);
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
