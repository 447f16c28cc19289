using System.Security.Cryptography;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Checks an APNs provider token as Apple does: <c>authorization: bearer &lt;JWT&gt;</c>, ES256 signed with the key
/// named by the header's kid, iss the team id, iat present and not older than an hour. Returns Apple's 403 reason
/// (MissingProviderToken, InvalidProviderToken, ExpiredProviderToken) or null when the token is good.
/// </summary>
internal sealed class ApnsProviderTokenValidator(PushTrust trust)
{
    private static readonly TimeSpan MaxAge = TimeSpan.FromMinutes(60);

    private readonly ECDsaSecurityKey key = new(ECDsa.Create(trust.ApnsPublicKey)) { KeyId = trust.KeyId };

    public async Task<string?> CheckAsync(string authorization, DateTimeOffset now)
    {
        if (!authorization.StartsWith("bearer ", StringComparison.OrdinalIgnoreCase))
        {
            return "MissingProviderToken";
        }

        var result = await new JsonWebTokenHandler().ValidateTokenAsync(authorization["bearer ".Length..], new TokenValidationParameters
        {
            ValidIssuer = trust.TeamId,
            ValidateAudience = false,
            // Apple's tokens carry no exp: their age is judged by iat below.
            ValidateLifetime = false,
            RequireExpirationTime = false,
            IssuerSigningKey = key,
            ValidAlgorithms = [SecurityAlgorithms.EcdsaSha256],
        });
        if (!result.IsValid || result.SecurityToken is not JsonWebToken token || token.Kid != trust.KeyId)
        {
            return "InvalidProviderToken";
        }

        if (token.IssuedAt == DateTime.MinValue)
        {
            return "InvalidProviderToken";
        }

        return now - new DateTimeOffset(token.IssuedAt, TimeSpan.Zero) > MaxAge ? "ExpiredProviderToken" : null;
    }
}
