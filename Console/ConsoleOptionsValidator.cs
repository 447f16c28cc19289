using Microsoft.Extensions.Options;
using Notifications.Shared.Observability;

namespace Notifications.OperatorConsole;

/// <summary>Checks what data annotations cannot: an IP address to bind, a certificate with its key that load, each worker's endpoint.</summary>
internal sealed class ConsoleOptionsValidator : IValidateOptions<ConsoleOptions>
{
    public ValidateOptionsResult Validate(string? name, ConsoleOptions options)
    {
        var failures = PublicServerListen.Problems(ConsoleOptions.SectionName, options.Address, options.Certificate, options.CertificateKey);
        for (int i = 0; i < options.Workers.Count; i++)
        {
            var worker = options.Workers[i];
            if (worker.Name.Length == 0 || worker.Url is not { IsAbsoluteUri: true, Scheme: "http" or "https" })
            {
                failures.Add($"{ConsoleOptions.SectionName}:Workers:{i}: give a Name and an absolute http(s) Url of its operations endpoint (e.g. http://consumer:9464/)");
            }
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
