using System.Security.Cryptography;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.Client.Live;

/// <summary>
/// The token an app's client connects to the live gateway with (issue 30): a JWT for one subscriber, signed HS256 with the
/// key the gateway trusts (<c>Gateway:TokenKey</c>), short-lived. The business app mints it for its signed-in user and
/// hands it to the app; the gateway takes it as <c>?access_token=</c>. Mint on the app's server: the key must never reach
/// a browser or a device.
/// </summary>
public static class LiveTokens
{
    /// <summary>The issuer the gateway expects unless configured otherwise (<c>Gateway:Issuer</c>).</summary>
    public const string DefaultIssuer = "notifications-app";

    /// <summary>The audience the gateway expects unless configured otherwise (<c>Gateway:Audience</c>).</summary>
    public const string DefaultAudience = "notifications-gateway";

    /// <summary>A token for <paramref name="subscriberId"/> (the app's own id, as in the registry), valid for <paramref name="lifetime"/>.</summary>
    /// <param name="keyBase64">The gateway's key: at least 32 random bytes, in base64.</param>
    /// <param name="subscriberId">The subscriber: the token's <c>sub</c>.</param>
    /// <param name="lifetime">How long it is valid: at most a day; minutes are usual.</param>
    /// <param name="issuer">The issuer the gateway expects.</param>
    /// <param name="audience">The audience the gateway expects.</param>
    /// <exception cref="ArgumentException">The subscriber is empty, the key too short, or the lifetime not within a day.</exception>
    public static string Mint(string keyBase64, string subscriberId, TimeSpan lifetime, string issuer = DefaultIssuer, string audience = DefaultAudience)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(subscriberId);
        ArgumentException.ThrowIfNullOrWhiteSpace(keyBase64);
        byte[] key = Convert.FromBase64String(keyBase64);
        if (key.Length < 32)
        {
            throw new ArgumentException("The key must be at least 32 random bytes (in base64).", nameof(keyBase64));
        }

        if (lifetime <= TimeSpan.Zero || lifetime > TimeSpan.FromDays(1))
        {
            throw new ArgumentException("The lifetime must be positive and at most a day.", nameof(lifetime));
        }

        var now = DateTime.UtcNow;
        var token = new JsonWebTokenHandler().CreateToken(new SecurityTokenDescriptor
        {
            Issuer = issuer,
            Audience = audience,
            Claims = new Dictionary<string, object> { [JwtRegisteredClaimNames.Sub] = subscriberId, [JwtRegisteredClaimNames.Jti] = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(8)) },
            IssuedAt = now,
            NotBefore = now,
            Expires = now + lifetime,
            SigningCredentials = new SigningCredentials(new SymmetricSecurityKey(key), SecurityAlgorithms.HmacSha256),
        });
        CryptographicOperations.ZeroMemory(key);
        return token;
    }
}
