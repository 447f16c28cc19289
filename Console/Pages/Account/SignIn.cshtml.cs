using System.Security.Claims;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authentication.OpenIdConnect;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Microsoft.Extensions.Options;
using Notifications.OperatorConsole.Authentication;

namespace Notifications.OperatorConsole.Pages.Account;

/// <summary>
/// The sign-in page (anonymous, as it must be): the OpenID Connect button when a provider is configured, the bootstrap account's
/// form when its password file is. A refused password is the same answer whatever was wrong.
/// </summary>
[AllowAnonymous]
internal sealed class SignInModel(
    BootstrapAccount account, IOptions<ConsoleOidcOptions> oidc, IOptions<BootstrapOptions> bootstrap, IOptions<ConsoleOptions> console,
    ILogger<SignInModel> logger) : PageModel
{
    public bool Oidc => oidc.Value.Enabled;

    public bool Bootstrap => account.Enabled;

    public string BootstrapUser => bootstrap.Value.User;

    public string ReturnUrl { get; private set; } = "/";

    public bool Refused { get; private set; }

    public void OnGet(string? returnUrl) => ReturnUrl = Local(returnUrl);

    public IActionResult OnPostOidc(string? returnUrl) => Oidc
        ? Challenge(new AuthenticationProperties { RedirectUri = Local(returnUrl) }, OpenIdConnectDefaults.AuthenticationScheme)
        : NotFound();

    public async Task<IActionResult> OnPostPasswordAsync(string? user, string? password, string? returnUrl)
    {
        ReturnUrl = Local(returnUrl);
        if (!account.Check(user, password))
        {
            ConsoleLog.SignInRefused(logger, user ?? "");
            Refused = true;
            Response.StatusCode = StatusCodes.Status401Unauthorized;
            return Page();
        }

        var roles = console.Value.Roles;
        var identity = new ClaimsIdentity(
            [new Claim("name", BootstrapUser), new Claim(roles.ClaimType, roles.Operator), new Claim("amr", "pwd")],
            "bootstrap", "name", roles.ClaimType);
        await HttpContext.SignInAsync(CookieAuthenticationDefaults.AuthenticationScheme, new ClaimsPrincipal(identity));
        ConsoleLog.SignedIn(logger, BootstrapUser, "bootstrap", roles.Operator);
        return LocalRedirect(ReturnUrl);
    }

    // Only a path of this site: an absolute URL in returnUrl would make the sign-in an open redirect.
    private string Local(string? returnUrl) => Url.IsLocalUrl(returnUrl) ? returnUrl! : "/";
}
