using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole;

/// <summary>Checks what data annotations cannot: an IP address to bind, and a certificate with its key that load.</summary>
internal sealed class ConsoleOptionsValidator : IValidateOptions<ConsoleOptions>
{
    public ValidateOptionsResult Validate(string? name, ConsoleOptions options)
    {
        var failures = PublicServerListen.Problems(ConsoleOptions.SectionName, options.Address, options.Certificate, options.CertificateKey);
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
