using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Sending;

namespace Notifications.Consumer;

/// <summary>Makes each handler its own sender (an SMTP client is one connection, not thread-safe).</summary>
internal sealed class EmailSenderFactory(IOptions<ConsumerOptions> options, IOptions<SmtpOptions> smtp, ConsumerMetrics metrics, ILoggerFactory loggers)
{
    public IEmailSender Create() => new MeteredEmailSender(
        options.Value.Sender switch
        {
            SenderKind.Simulated => new SimulatedEmailSender(options.Value.SimulatedSendDelay),
            _ => new SmtpEmailSender(smtp.Value, loggers.CreateLogger<SmtpEmailSender>()),
        },
        metrics);
}
