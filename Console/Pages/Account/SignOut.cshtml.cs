using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;
using Notifications.OperatorConsole.Authentication;

namespace Notifications.OperatorConsole.Pages.Account;

/// <summary>
/// Ends the console's session (its cookie). A POST with the antiforgery token, so another site cannot sign an operator out; the
/// provider's own session stays (signing in again may then need no password there).
/// </summary>
[AllowAnonymous]
internal sealed class SignOutModel : PageModel
{
    public async Task<IActionResult> OnPostAsync()
    {
        await HttpContext.SignOutAsync(CookieAuthenticationDefaults.AuthenticationScheme);
        return LocalRedirect(ConsoleAuthenticationExtensions.SignInPath);
    }
}
