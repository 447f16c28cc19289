using Notifications.Consumer.Channels;
using Notifications.Consumer.Channels.Email;

namespace Notifications.UnitTests.Consumer;

/// <summary>
/// A sender whose every send ends as <see cref="Next"/> says: null succeeds, an exception is thrown; a delay waits first, and
/// <see cref="OnSend"/>, when set, is awaited first (a send a test holds until it lets it finish).
/// </summary>
internal sealed class ScriptedSender : IEmailSender, IChannelSender
{
    public Exception? Next { get; set; }

    public TimeSpan Delay { get; set; }

    public Func<Task>? OnSend { get; set; }

    public async Task SendAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        if (Delay > TimeSpan.Zero)
        {
            await Task.Delay(Delay, cancellationToken);
        }

        if (OnSend is { } held)
        {
            await held();
        }

        if (Next is { } failure)
        {
            throw failure;
        }
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    public Task SendAsync(Outgoing outgoing, CancellationToken cancellationToken) => SendAsync((EmailMessage)outgoing, cancellationToken);
}
