using Microsoft.Extensions.Options;

namespace Notifications.OperatorConsole.Authentication;

/// <summary>A configured OpenID Connect sign-in is complete: an absolute (HTTPS unless on loopback) authority and a client id.</summary>
internal sealed class OidcOptionsValidator : IValidateOptions<ConsoleOidcOptions>
{
    public ValidateOptionsResult Validate(string? name, ConsoleOidcOptions options)
    {
        if (!options.Enabled)
        {
            return ValidateOptionsResult.Success;
        }

        var failures = new List<string>();
        if (!Uri.TryCreate(options.Authority, UriKind.Absolute, out var authority))
        {
            failures.Add($"Console:Oidc:Authority must be an absolute URL, not '{options.Authority}'");
        }
        else if (options.RequireHttpsMetadata && authority.Scheme != Uri.UriSchemeHttps)
        {
            failures.Add("Console:Oidc:Authority must be https:// (Console:Oidc:RequireHttpsMetadata=false only for a provider on loopback)");
        }

        if (options.ClientId is not { Length: > 0 })
        {
            failures.Add("Console:Oidc:ClientId is required with Console:Oidc:Authority");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
