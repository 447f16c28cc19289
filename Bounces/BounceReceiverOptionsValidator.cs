using Microsoft.Extensions.Options;
using Notifications.Shared.Bounces;
using Notifications.Shared.Observability;

namespace Notifications.Bounces;

/// <summary>
/// Checks what data annotations cannot: an IP address to bind, a certificate with its key that load; and, since the
/// receiver reads every report's notification from its return path, that the bounce domain and its keys are configured.
/// </summary>
internal sealed class BounceReceiverOptionsValidator(IOptions<ReturnPathOptions> returnPath) : IValidateOptions<BounceReceiverOptions>
{
    public ValidateOptionsResult Validate(string? name, BounceReceiverOptions options)
    {
        var failures = PublicServerListen.Problems(BounceReceiverOptions.SectionName, options.Address, options.Certificate, options.CertificateKey);
        if (!returnPath.Value.IsConfigured)
        {
            failures.Add("Bounces:Domain must name the bounce domain (its MX points here), with Bounces:Keys:0:Id and Bounces:Keys:0:Secret (docs/bounces.md)");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
