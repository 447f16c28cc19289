using System.Net;
using System.Security.Claims;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.Extensions.Options;

namespace Notifications.OidcProvider;

/// <summary>The provider's login form: a user name and a password, checked against <see cref="ProviderOptions.Users"/>.</summary>
internal static class LoginForm
{
    public const string Path = "/login";

    public static IResult Show(string? returnUrl, bool? failed) => Results.Content($"""
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Test provider: sign in</title></head>
        <body style="font: 15px system-ui, sans-serif; margin: 2rem">
        <h1>Test identity provider</h1>
        {(failed == true ? "<p id=\"failed\">Wrong user name or password.</p>" : "")}
        <form method="post" action="{Path}">
          <input type="hidden" name="returnUrl" value="{WebUtility.HtmlEncode(returnUrl ?? "/")}">
          <p><label>User <input id="username" name="username"></label></p>
          <p><label>Password <input id="password" name="password" type="password"></label></p>
          <p><button id="login" type="submit">Sign in</button></p>
        </form>
        </body></html>
        """, "text/html");

    public static async Task<IResult> SubmitAsync(HttpContext context, IOptions<ProviderOptions> options)
    {
        var form = await context.Request.ReadFormAsync(context.RequestAborted);
        string returnUrl = form["returnUrl"].ToString();
        // Only back into this provider (the authorization endpoint): never an open redirect.
        string back = returnUrl.StartsWith('/') && !returnUrl.StartsWith("//", StringComparison.Ordinal) ? returnUrl : "/";
        var user = options.Value.Users.Find(u => u.Name == form["username"] && u.Password == form["password"]);
        if (user is null)
        {
            return Results.Redirect($"{Path}?failed=true&returnUrl={Uri.EscapeDataString(back)}");
        }

        var identity = new ClaimsIdentity([new Claim(ClaimTypes.Name, user.Name)], CookieAuthenticationDefaults.AuthenticationScheme);
        await context.SignInAsync(CookieAuthenticationDefaults.AuthenticationScheme, new ClaimsPrincipal(identity));
        return Results.Redirect(back);
    }
}
