using System.Security.Claims;
using System.Security.Cryptography;
using System.Text.Json;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Fresh key material for a push test: an FCM service account (RSA 2048) and an APNs signing key (EC P-256, as a .p8),
/// what the server trusts of them, the files a sender would be configured with, and tokens signed with them.
/// </summary>
internal sealed class PushTestKeys : IDisposable
{
    public const string MessagingScope = "https://www.googleapis.com/auth/firebase.messaging";

    // Tokens get exactly the times given (Apple's carry no exp; the tests make stale and expired ones).
    private static readonly JsonWebTokenHandler Handler = new() { SetDefaultTimesOnTokenCreation = false };

    private readonly RSA serviceAccount = RSA.Create(2048);
    private readonly ECDsa apnsKey = ECDsa.Create(ECCurve.NamedCurves.nistP256);

    public string ProjectId { get; } = "notifications-test";

    public string ClientEmail { get; } = "sender@notifications-test.iam.gserviceaccount.com";

    public string TeamId { get; } = "TEAM123456";

    public string KeyId { get; } = "KEY1234567";

    public PushTrust Trust => new(ProjectId, ClientEmail, serviceAccount.ExportParameters(false), TeamId, KeyId,
        apnsKey.ExportParameters(false));

    /// <summary>The APNs signing key as Apple hands it out: a PKCS#8 PEM (.p8).</summary>
    public string ApnsKeyPem => apnsKey.ExportPkcs8PrivateKeyPem();

    /// <summary>A service-account JSON file as Google's console writes it, pointing at <paramref name="tokenUri"/>.</summary>
    public string ServiceAccountJson(Uri tokenUri) => JsonSerializer.Serialize(new Dictionary<string, string>
    {
        ["type"] = "service_account",
        ["project_id"] = ProjectId,
        ["private_key_id"] = "test-key",
        ["private_key"] = serviceAccount.ExportPkcs8PrivateKeyPem(),
        ["client_email"] = ClientEmail,
        ["token_uri"] = tokenUri.ToString(),
    });

    /// <summary>A service-account assertion (RS256) for the OAuth2 jwt-bearer grant, signed with this account's key or <paramref name="signWith"/>.</summary>
    public string CreateAssertion(Uri audience, DateTimeOffset issuedAt, TimeSpan lifetime, string scope = MessagingScope, RSA? signWith = null)
    {
        var key = new RsaSecurityKey(signWith ?? serviceAccount) { KeyId = "test-key" };
        return Handler.CreateToken(new SecurityTokenDescriptor
        {
            Issuer = ClientEmail,
            Audience = audience.ToString(),
            IssuedAt = issuedAt.UtcDateTime,
            Expires = (issuedAt + lifetime).UtcDateTime,
            Claims = new Dictionary<string, object> { ["scope"] = scope },
            SigningCredentials = new SigningCredentials(key, SecurityAlgorithms.RsaSha256),
        });
    }

    /// <summary>An APNs provider token (ES256; header kid, claims iss and iat only, as Apple specifies).</summary>
    public string CreateProviderToken(DateTimeOffset issuedAt, ECDsa? signWith = null, string? keyId = null)
    {
        var key = new ECDsaSecurityKey(signWith ?? apnsKey) { KeyId = keyId ?? KeyId };
        return Handler.CreateToken(new SecurityTokenDescriptor
        {
            Subject = new ClaimsIdentity([new Claim("iss", TeamId)]),
            IssuedAt = issuedAt.UtcDateTime,
            SigningCredentials = new SigningCredentials(key, SecurityAlgorithms.EcdsaSha256),
        });
    }

    public void Dispose()
    {
        serviceAccount.Dispose();
        apnsKey.Dispose();
    }
}
