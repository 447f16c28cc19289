using System.Security.Cryptography;
using Microsoft.Extensions.Options;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;
using Notifications.Gateway;

namespace Notifications.UnitTests.Gateway;

/// <summary>The gateway takes a live token (HS256, <c>sub</c>: the subscriber) for its subscriber and refuses any other, saying why.</summary>
public sealed class LiveTokenTests
{
    private const string Audience = "notifications-gateway";
    private static readonly string Key = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));
    private readonly LiveTokenCheck _check = new(Options.Create(new GatewayOptions { TokenKey = Key }));

    [Fact]
    public async Task Check_AValidToken_TheSubscriber()
    {
        Assert.Equal(("ana-1", (string?)null), await _check.ValidateAsync(Token(Key, Audience, DateTime.UtcNow, DateTime.UtcNow.AddMinutes(5))));
    }

    [Fact]
    public async Task Check_ExpiredForeignOrWrongAudience_RefusedWithTheReason()
    {
        string expired = Token(Key, Audience, DateTime.UtcNow.AddMinutes(-10), DateTime.UtcNow.AddMinutes(-5));
        string foreign = Token(Convert.ToBase64String(RandomNumberGenerator.GetBytes(32)), Audience, DateTime.UtcNow, DateTime.UtcNow.AddMinutes(5));
        string audience = Token(Key, "someone-else", DateTime.UtcNow, DateTime.UtcNow.AddMinutes(5));

        Assert.Equal((null, "the token has expired"), await _check.ValidateAsync(expired));
        Assert.Equal((null, "the token's signature is not valid"), await _check.ValidateAsync(foreign));
        Assert.Equal((null, "the token is not valid"), await _check.ValidateAsync(audience));
        Assert.Equal((null, "no token: pass ?access_token=<jwt>"), await _check.ValidateAsync(null));
    }

    private static string Token(string key, string audience, DateTime notBefore, DateTime expires) =>
        new JsonWebTokenHandler().CreateToken(new SecurityTokenDescriptor
        {
            Issuer = "notifications-app",
            Audience = audience,
            Claims = new Dictionary<string, object> { [JwtRegisteredClaimNames.Sub] = "ana-1" },
            IssuedAt = notBefore,
            NotBefore = notBefore,
            Expires = expires,
            SigningCredentials = new SigningCredentials(new SymmetricSecurityKey(Convert.FromBase64String(key)), SecurityAlgorithms.HmacSha256),
        });
}
