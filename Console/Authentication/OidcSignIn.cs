using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authentication.OpenIdConnect;
using Microsoft.IdentityModel.Protocols.OpenIdConnect;

namespace Notifications.OperatorConsole.Authentication;

/// <summary>The OpenID Connect handler's options from <see cref="ConsoleOidcOptions"/>: a confidential client, code flow with PKCE.</summary>
internal static class OidcSignIn
{
    public static void Configure(OpenIdConnectOptions o, ConsoleOidcOptions oidc, ConsoleRoleOptions roles)
    {
        o.SignInScheme = CookieAuthenticationDefaults.AuthenticationScheme;
        o.Authority = oidc.Authority;
        o.ClientId = oidc.ClientId;
        o.ClientSecret = oidc.ClientSecret;
        o.RequireHttpsMetadata = oidc.RequireHttpsMetadata;
        o.ResponseType = OpenIdConnectResponseType.Code;
        o.UsePkce = true;
        // The code comes back on a top-level GET: the correlation and nonce cookies can be SameSite=Lax (a form_post back
        // would need SameSite=None, which browsers drop from plain-HTTP cookies).
        o.ResponseMode = OpenIdConnectResponseMode.Query;
        o.CorrelationCookie.SameSite = SameSiteMode.Lax;
        o.NonceCookie.SameSite = SameSiteMode.Lax;
        o.CorrelationCookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
        o.NonceCookie.SecurePolicy = CookieSecurePolicy.SameAsRequest;
        o.Scope.Clear();
        foreach (string scope in oidc.Scopes.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            o.Scope.Add(scope);
        }

        // The claims as the provider names them: the role claim is Console:Roles:ClaimType, not a WS-Federation URI.
        o.MapInboundClaims = false;
        o.TokenValidationParameters.NameClaimType = "name";
        o.TokenValidationParameters.RoleClaimType = roles.ClaimType;
        o.SaveTokens = false;
        o.Events.OnTokenValidated = context =>
        {
            var user = context.Principal!;
            var logger = context.HttpContext.RequestServices.GetRequiredService<ILoggerFactory>().CreateLogger(typeof(OidcSignIn));
            ConsoleLog.SignedIn(logger, user.Identity?.Name ?? "?", "oidc", string.Join(',', user.FindAll(roles.ClaimType).Select(c => c.Value)));
            return Task.CompletedTask;
        };
    }
}
