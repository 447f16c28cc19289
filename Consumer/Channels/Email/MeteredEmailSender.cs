using System.Diagnostics;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Channels.Email;

/// <summary>Times and traces every send and counts failures by kind, around the handler's own sender.</summary>
internal sealed class MeteredEmailSender(IEmailSender inner, ConsumerMetrics metrics) : IEmailSender
{
    public async Task SendAsync(EmailMessage message, CancellationToken cancellationToken)
    {
        long start = Stopwatch.GetTimestamp();
        using var activity = ConsumerTracing.StartSend(message.NotificationId);
        try
        {
            await inner.SendAsync(message, cancellationToken);
        }
        catch (SmtpSendException ex)
        {
            metrics.SendFailed(ex.Kind, Stopwatch.GetElapsedTime(start));
            activity?.SetStatus(ActivityStatusCode.Error, ex.Kind.ToString());
            throw;
        }

        metrics.SendSucceeded(Stopwatch.GetElapsedTime(start));
    }

    public ValueTask DisposeAsync() => inner.DisposeAsync();
}
