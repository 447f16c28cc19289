using System.Security.Claims;
using Microsoft.AspNetCore;
using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.Extensions.Options;
using OpenIddict.Abstractions;
using OpenIddict.Server.AspNetCore;
using static OpenIddict.Abstractions.OpenIddictConstants;

namespace Notifications.OidcProvider;

/// <summary>
/// The authorization endpoint after OpenIddict validated the request (client, redirect URI, PKCE): a visitor not signed in at the
/// provider goes to the login form and comes back; a signed-in user gets a code whose ID token carries sub, name and role.
/// </summary>
internal static class AuthorizeEndpoint
{
    public static async Task<IResult> HandleAsync(HttpContext context, IOptions<ProviderOptions> options)
    {
        var request = context.GetOpenIddictServerRequest() ?? throw new InvalidOperationException("not an OpenID Connect request");
        var session = await context.AuthenticateAsync(CookieAuthenticationDefaults.AuthenticationScheme);
        var user = session.Succeeded ? options.Value.Users.Find(u => u.Name == session.Principal!.Identity!.Name) : null;
        if (user is null)
        {
            string back = context.Request.PathBase + context.Request.Path + QueryString.Create(context.Request.HasFormContentType
                ? context.Request.Form.ToList()
                : context.Request.Query.ToList());
            return Results.Challenge(new AuthenticationProperties { RedirectUri = back }, [CookieAuthenticationDefaults.AuthenticationScheme]);
        }

        var identity = new ClaimsIdentity(OpenIddictServerAspNetCoreDefaults.AuthenticationScheme, Claims.Name, Claims.Role);
        identity.SetClaim(Claims.Subject, user.Name).SetClaim(Claims.Name, user.Name).SetClaims(Claims.Role, [user.Role]);
        identity.SetScopes(request.GetScopes());
        // Name and role in the ID token too: the console reads the role from it (no userinfo round trip).
        identity.SetDestinations(_ => [Destinations.AccessToken, Destinations.IdentityToken]);
        return Results.SignIn(new ClaimsPrincipal(identity), authenticationScheme: OpenIddictServerAspNetCoreDefaults.AuthenticationScheme);
    }
}
