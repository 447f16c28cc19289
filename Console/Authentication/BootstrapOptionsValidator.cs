using Microsoft.Extensions.Options;

namespace Notifications.OperatorConsole.Authentication;

/// <summary>
/// The console never starts open: at least one sign-in (OpenID Connect or the bootstrap account) must be configured; the bootstrap
/// account's password file must hold a long enough password.
/// </summary>
internal sealed class BootstrapOptionsValidator(IOptions<ConsoleOidcOptions> oidc) : IValidateOptions<BootstrapOptions>
{
    public ValidateOptionsResult Validate(string? name, BootstrapOptions options)
    {
        if (!options.Enabled)
        {
            return oidc.Value.Enabled
                ? ValidateOptionsResult.Success
                : ValidateOptionsResult.Fail("the console has no sign-in: set Console:Oidc:Authority (with ClientId and ClientSecret) or " +
                                             "Console:Bootstrap:PasswordFile (scripts/setup generates .run/secrets/console_operator) or Console:Bootstrap:Password; it does not start open");
        }

        string? problem = BootstrapAccount.PasswordProblem(options);
        return problem is null ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(problem);
    }
}
