using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.Harness.Live;

/// <summary>The clients' tokens, signed as a business app signs them for its users (docs/live.md): HS256, sub, issuer, audience.</summary>
internal sealed class LiveTokens(string key)
{
    private readonly JsonWebTokenHandler _handler = new();
    private readonly SigningCredentials _credentials = new(new SymmetricSecurityKey(Convert.FromBase64String(key)), SecurityAlgorithms.HmacSha256);

    /// <summary>A token for <paramref name="subscriber"/>, valid for the run (an hour: the gateway checks it at connect).</summary>
    public string Mint(string subscriber) => _handler.CreateToken(new SecurityTokenDescriptor
    {
        Issuer = "notifications-app",
        Audience = "notifications-gateway",
        Claims = new Dictionary<string, object> { [JwtRegisteredClaimNames.Sub] = subscriber },
        Expires = DateTime.UtcNow.AddHours(1),
        SigningCredentials = _credentials,
    });
}
