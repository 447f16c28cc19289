using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.AspNetCore.Authentication.OpenIdConnect;
using Microsoft.AspNetCore.Authorization;
using Microsoft.Extensions.Options;

namespace Notifications.OperatorConsole.Authentication;

/// <summary>
/// Who may use the console: a cookie session made by OpenID Connect (authorization code with PKCE) or by the bootstrap
/// account, and the two policies over the configured role claim. Nothing here is open: the pages' group and the fallback policy
/// both require <see cref="ConsolePolicies.Viewer"/>.
/// </summary>
internal static class ConsoleAuthenticationExtensions
{
    /// <summary>Where an anonymous visitor is sent; the page offers the configured sign-ins.</summary>
    public const string SignInPath = "/signin";

    public static IServiceCollection AddConsoleAuthentication(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddOptions<ConsoleOidcOptions>().BindConfiguration(ConsoleOidcOptions.SectionName).ValidateOnStart();
        services.AddOptions<BootstrapOptions>().BindConfiguration(BootstrapOptions.SectionName).ValidateOnStart();
        services.AddSingleton<IValidateOptions<ConsoleOidcOptions>, OidcOptionsValidator>();
        services.AddSingleton<IValidateOptions<BootstrapOptions>, BootstrapOptionsValidator>();
        services.AddSingleton<BootstrapAccount>();

        var authentication = services.AddAuthentication(CookieAuthenticationDefaults.AuthenticationScheme).AddCookie(cookie =>
        {
            cookie.Cookie.Name = "notifications-console";
            cookie.Cookie.HttpOnly = true;
            cookie.Cookie.SameSite = SameSiteMode.Lax;
            cookie.LoginPath = SignInPath;
            cookie.ExpireTimeSpan = TimeSpan.FromHours(8);
            cookie.SlidingExpiration = true;
            // A signed-in user without the role gets 403, not a redirect to a page that would only say so.
            cookie.Events.OnRedirectToAccessDenied = context =>
            {
                context.Response.StatusCode = StatusCodes.Status403Forbidden;
                return Task.CompletedTask;
            };
        });
        // The scheme exists only when a provider is configured; its options bound below from Console:Oidc.
        if (configuration[$"{ConsoleOidcOptions.SectionName}:Authority"] is { Length: > 0 })
        {
            authentication.AddOpenIdConnect();
            services.AddOptions<OpenIdConnectOptions>(OpenIdConnectDefaults.AuthenticationScheme)
                .Configure<IOptions<ConsoleOidcOptions>, IOptions<ConsoleOptions>>((o, oidc, console) => OidcSignIn.Configure(o, oidc.Value, console.Value.Roles));
        }

        services.AddOptions<AuthorizationOptions>().Configure<IOptions<ConsoleOptions>>((o, console) =>
        {
            var roles = console.Value.Roles;
            o.AddPolicy(ConsolePolicies.Viewer, p => p.RequireAuthenticatedUser().RequireClaim(roles.ClaimType, roles.Viewer, roles.Operator));
            o.AddPolicy(ConsolePolicies.Operator, p => p.RequireAuthenticatedUser().RequireClaim(roles.ClaimType, roles.Operator));
            // Closed by default: an endpoint that says nothing about authorization still needs a role.
            o.FallbackPolicy = o.GetPolicy(ConsolePolicies.Viewer);
        });
        return services;
    }
}
