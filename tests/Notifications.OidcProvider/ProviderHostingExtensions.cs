using Microsoft.AspNetCore.Authentication.Cookies;
using Microsoft.EntityFrameworkCore;
using static OpenIddict.Abstractions.OpenIddictConstants;

namespace Notifications.OidcProvider;

/// <summary>
/// OpenIddict's server over EF Core's in-memory store, ephemeral keys (a new key pair per process: fine for tests), plain HTTP
/// on loopback; the provider's own session is a cookie its login form sets.
/// </summary>
internal static class ProviderHostingExtensions
{
    public static WebApplicationBuilder AddOidcProvider(this WebApplicationBuilder builder)
    {
        var services = builder.Services;
        services.AddOptions<ProviderOptions>().BindConfiguration(ProviderOptions.SectionName)
            .Validate(o => Uri.IsWellFormedUriString(o.RedirectUri, UriKind.Absolute), "Provider:RedirectUri must be an absolute URL")
            .Validate(o => o.ClientSecret.Length > 0 && o.Users.Count > 0, "Provider:ClientSecret and Provider:Users are required")
            .ValidateOnStart();
        services.AddDbContext<ProviderDbContext>(o =>
        {
            o.UseInMemoryDatabase("oidc-provider");
            o.UseOpenIddict();
        });
        services.AddOpenIddict()
            .AddCore(o => o.UseEntityFrameworkCore().UseDbContext<ProviderDbContext>())
            .AddServer(o =>
            {
                o.SetAuthorizationEndpointUris("connect/authorize").SetTokenEndpointUris("connect/token");
                o.AllowAuthorizationCodeFlow().RequireProofKeyForCodeExchange();
                o.RegisterScopes(Scopes.OpenId, Scopes.Profile, Scopes.Roles);
                o.AddEphemeralEncryptionKey().AddEphemeralSigningKey();
                // The authorization endpoint is ours (AuthorizeEndpoint: who is signed in, which claims); the code exchange is OpenIddict's.
                o.UseAspNetCore().EnableAuthorizationEndpointPassthrough().DisableTransportSecurityRequirement();
            });
        services.AddAuthentication(CookieAuthenticationDefaults.AuthenticationScheme).AddCookie(o =>
        {
            o.Cookie.Name = "oidc-provider";
            o.LoginPath = LoginForm.Path;
        });
        services.AddAuthorization();
        return builder;
    }

    public static WebApplication MapOidcProvider(this WebApplication app)
    {
        app.UseAuthentication();
        app.UseAuthorization();
        app.MapMethods("/connect/authorize", [HttpMethods.Get, HttpMethods.Post], AuthorizeEndpoint.HandleAsync);
        app.MapGet(LoginForm.Path, LoginForm.Show);
        app.MapPost(LoginForm.Path, LoginForm.SubmitAsync).DisableAntiforgery();
        return app;
    }
}
