namespace Notifications.OperatorConsole.Authentication;

/// <summary>
/// The OpenID Connect provider operators sign in with (section <c>Console:Oidc</c>): authorization code with PKCE, the roles from
/// its ID token (<see cref="ConsoleRoleOptions"/>). Unset <see cref="Authority"/>: no OpenID Connect sign-in.
/// </summary>
internal sealed class ConsoleOidcOptions
{
    public const string SectionName = "Console:Oidc";

    /// <summary>The provider's issuer, e.g. <c>https://login.example.com/realms/ops</c> (its discovery document below it).</summary>
    public string? Authority { get; set; }

    /// <summary>The console's client id at the provider.</summary>
    public string? ClientId { get; set; }

    /// <summary>The console's client secret (a confidential client); a Docker secret in the stacks.</summary>
    public string? ClientSecret { get; set; }

    /// <summary>The scopes asked for, space-separated; the provider must put the role claim in the ID token for them.</summary>
    public string Scopes { get; set; } = "openid profile roles";

    /// <summary>Whether the authority must be HTTPS. Off only for a provider on loopback (the tests').</summary>
    public bool RequireHttpsMetadata { get; set; } = true;

    /// <summary>Whether OpenID Connect sign-in is configured.</summary>
    public bool Enabled => Authority is { Length: > 0 };
}
