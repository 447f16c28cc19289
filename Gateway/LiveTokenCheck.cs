using Microsoft.Extensions.Options;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.Gateway;

/// <summary>
/// A client's token: a JWT the business app signed (HS256) for one subscriber (<c>sub</c>), short-lived, naming
/// <see cref="GatewayOptions.Issuer"/> and <see cref="GatewayOptions.Audience"/>. Validated by Microsoft.IdentityModel.
/// </summary>
internal sealed class LiveTokenCheck(IOptions<GatewayOptions> options)
{
    private readonly JsonWebTokenHandler _handler = new();
    private readonly TokenValidationParameters _parameters = new()
    {
        ValidIssuer = options.Value.Issuer,
        ValidAudience = options.Value.Audience,
        IssuerSigningKey = new SymmetricSecurityKey(Convert.FromBase64String(options.Value.TokenKey)),
        ValidAlgorithms = [SecurityAlgorithms.HmacSha256],
        RequireExpirationTime = true,
        ClockSkew = TimeSpan.FromSeconds(30),
    };

    /// <summary>The subscriber a valid token is for; null with the reason for any other.</summary>
    public async Task<(string? Subscriber, string? Refusal)> ValidateAsync(string? token)
    {
        if (string.IsNullOrEmpty(token))
        {
            return (null, "no token: pass ?access_token=<jwt>");
        }

        var result = await _handler.ValidateTokenAsync(token, _parameters);
        if (!result.IsValid)
        {
            return (null, result.Exception?.GetType().Name switch
            {
                nameof(SecurityTokenExpiredException) => "the token has expired",
                nameof(SecurityTokenSignatureKeyNotFoundException) or nameof(SecurityTokenInvalidSignatureException) => "the token's signature is not valid",
                _ => "the token is not valid",
            });
        }

        string? subscriber = result.ClaimsIdentity.FindFirst(JwtRegisteredClaimNames.Sub)?.Value;
        return string.IsNullOrEmpty(subscriber) ? (null, "the token names no subscriber (sub)") : (subscriber, null);
    }
}
