using System.Collections.Concurrent;
using System.Security.Cryptography;
using Microsoft.AspNetCore.Http;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.IntegrationTests.Infrastructure.Receivers;

/// <summary>
/// Google's OAuth2 token endpoint for service accounts (<c>POST /token</c>, form <c>grant_type=
/// urn:ietf:params:oauth:grant-type:jwt-bearer&amp;assertion=JWT</c>): the RS256 signature is checked against the
/// service account's public key, iss is its client email, aud this endpoint, scope includes firebase.messaging (or
/// cloud-platform), iat and exp present, at most an hour apart, iat not in the future and exp not past. Answers Google's
/// <c>{access_token, expires_in, token_type}</c> or 400 <c>invalid_grant</c>.
/// </summary>
internal sealed class FcmTokenEndpoint(PushTrust trust)
{
    public const string GrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer";
    private const string CloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform";
    private static readonly TimeSpan MaxLifetime = TimeSpan.FromHours(1);
    private static readonly TimeSpan Skew = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan TokenLifetime = TimeSpan.FromSeconds(3599);

    private readonly RsaSecurityKey key = new(trust.ServiceAccountPublicKey);
    private readonly ConcurrentDictionary<string, DateTimeOffset> issued = new(StringComparer.Ordinal);
    private int requests;

    /// <summary>How many token requests arrived (a sender should reuse its token, not ask per send).</summary>
    public int Requests => Volatile.Read(ref requests);

    /// <summary>Whether <paramref name="accessToken"/> was issued here and has not expired.</summary>
    public bool IsValid(string accessToken) =>
        issued.TryGetValue(accessToken, out var expires) && expires > DateTimeOffset.UtcNow;

    public async Task HandleAsync(HttpContext context, Uri audience)
    {
        Interlocked.Increment(ref requests);
        var form = context.Request.HasFormContentType ? await context.Request.ReadFormAsync(context.RequestAborted) : null;
        if (form is null || form["grant_type"] != GrantType)
        {
            await Results.Json(new { error = "unsupported_grant_type", error_description = $"Invalid grant_type: {form?["grant_type"]}" },
                statusCode: 400).ExecuteAsync(context);
            return;
        }

        string? refusal = await CheckAssertionAsync(form["assertion"].ToString(), audience);
        if (refusal is not null)
        {
            await Results.Json(new { error = "invalid_grant", error_description = refusal }, statusCode: 400).ExecuteAsync(context);
            return;
        }

        string accessToken = "ya29.test-" + Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(24));
        issued[accessToken] = DateTimeOffset.UtcNow + TokenLifetime;
        await Results.Json(new { access_token = accessToken, expires_in = (int)TokenLifetime.TotalSeconds, token_type = "Bearer" })
            .ExecuteAsync(context);
    }

    private async Task<string?> CheckAssertionAsync(string assertion, Uri audience)
    {
        var result = await new JsonWebTokenHandler().ValidateTokenAsync(assertion, new TokenValidationParameters
        {
            ValidIssuer = trust.ClientEmail,
            ValidAudience = audience.ToString(),
            IssuerSigningKey = key,
            ValidAlgorithms = [SecurityAlgorithms.RsaSha256],
            RequireExpirationTime = true,
            ClockSkew = Skew,
        });
        if (!result.IsValid)
        {
            return result.Exception is SecurityTokenExpiredException
                ? "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."
                : $"Invalid JWT Signature or claims: {result.Exception?.GetType().Name}";
        }

        var token = (JsonWebToken)result.SecurityToken;
        if (token.IssuedAt == DateTime.MinValue || token.ValidTo - token.IssuedAt > MaxLifetime
            || token.IssuedAt > DateTime.UtcNow + Skew)
        {
            return "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.";
        }

        string scope = token.TryGetPayloadValue("scope", out string value) ? value : "";
        var scopes = scope.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return scopes.Contains(PushTestKeys.MessagingScope) || scopes.Contains(CloudPlatformScope)
            ? null
            : $"Invalid OAuth scope or ID token audience provided: '{scope}'.";
    }
}
