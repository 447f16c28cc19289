using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Telemetry;

namespace Notifications.Consumer.Channels.Email;

/// <summary>Makes each handler its own sender (an SMTP client is one connection, not thread-safe).</summary>
/// <remarks>With <c>RateLimits</c> configured, each sender waits for the relay's fleet-wide rate and reports slow-down replies.</remarks>
internal sealed class EmailSenderFactory(
    IOptions<ConsumerOptions> options, IOptions<SmtpOptions> smtp, IOptions<DkimOptions> dkim, ConsumerMetrics metrics, RateLimitSettings limits,
    FleetRateLimiter limiter, ILoggerFactory loggers)
{
    // One signer for every handler: the key is read once (and was checked at start).
    private readonly Lazy<DkimMessageSigner?> signer = new(() => CreateSigner(dkim.Value, loggers.CreateLogger<DkimMessageSigner>()));

    public IEmailSender Create()
    {
        IEmailSender sender = new MeteredEmailSender(
            options.Value.Sender switch
            {
                SenderKind.Simulated => new SimulatedEmailSender(options.Value.SimulatedSendDelay),
                _ => new SmtpEmailSender(smtp.Value, loggers.CreateLogger<SmtpEmailSender>(), metrics.SmtpIdleReconnected, signer.Value),
            },
            metrics);
        return limits.Any ? new RateLimitedEmailSender(sender, limiter, limits) : sender;
    }

    private static DkimMessageSigner? CreateSigner(DkimOptions options, ILogger logger)
    {
        var signer = DkimMessageSigner.Create(options);
        if (signer is not null)
        {
            SendingLog.DkimSigningOn(logger, options.Domain!, options.Selector!, string.Join(':', options.SignedHeaders), options.PrivateKeyFile!);
        }

        return signer;
    }
}
