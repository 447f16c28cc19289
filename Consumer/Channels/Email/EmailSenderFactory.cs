using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Notifications.Consumer.RateLimiting;
using Notifications.Consumer.Telemetry;
using Notifications.Shared.Bounces;

namespace Notifications.Consumer.Channels.Email;

/// <summary>Makes each handler its own sender (an SMTP client is one connection, not thread-safe).</summary>
/// <remarks>
/// With <c>RateLimits</c> configured, each sender waits for the relay's fleet-wide rate and reports slow-down replies; with
/// <c>Bounces:Domain</c>, each sends from its notification's signed return path.
/// </remarks>
internal sealed class EmailSenderFactory(
    IOptions<ConsumerOptions> options, IOptions<SmtpOptions> smtp, IOptions<DkimOptions> dkim, IOptions<ReturnPathOptions> bounces,
    ConsumerMetrics metrics, RateLimitSettings limits, FleetRateLimiter limiter, ILoggerFactory loggers)
{
    // One signer for every handler: the key is read once (and was checked at start).
    private readonly Lazy<DkimMessageSigner?> signer = new(() => CreateSigner(dkim.Value, loggers.CreateLogger<DkimMessageSigner>()));

    // One codec for every handler, when a bounce domain is configured (the options were validated at start).
    private readonly Lazy<ReturnPath?> returnPath = new(() => CreateReturnPath(bounces.Value, smtp.Value, loggers.CreateLogger<ReturnPath>()));

    public IEmailSender Create()
    {
        IEmailSender sender = new MeteredEmailSender(
            options.Value.Sender switch
            {
                SenderKind.Simulated => new SimulatedEmailSender(options.Value.SimulatedSendDelay),
                _ => new SmtpEmailSender(smtp.Value, loggers.CreateLogger<SmtpEmailSender>(), metrics.SmtpIdleReconnected, signer.Value, returnPath.Value),
            },
            metrics);
        return limits.Any ? new RateLimitedEmailSender(sender, limiter, limits) : sender;
    }

    private static ReturnPath? CreateReturnPath(ReturnPathOptions options, SmtpOptions smtp, ILogger logger)
    {
        if (!options.IsConfigured)
        {
            return null;
        }

        var returnPath = new ReturnPath(options);
        SendingLog.ReturnPathOn(logger, returnPath.For(1), smtp.From);
        return returnPath;
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
