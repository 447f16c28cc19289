using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Text.Json.Serialization;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Notifications.Consumer.Channels.Push.Fcm;

/// <summary>
/// The OAuth2 access token FCM's requests carry (Google's service-account flow, RFC 7523): an RS256 assertion (iss the
/// service account, aud the token endpoint, scope firebase.messaging, an hour long) exchanged at the token endpoint; the token is
/// cached and exchanged anew <see cref="RefreshBefore"/> its expiry. One per process, shared by every handler: one refresh at a
/// time, the others wait for it.
/// </summary>
internal sealed class FcmAccessTokens : IDisposable
{
    public const string MessagingScope = "https://www.googleapis.com/auth/firebase.messaging";
    public const string GrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer";

    /// <summary>How long before its expiry a token is replaced: a request under way with it must not arrive expired.</summary>
    public static readonly TimeSpan RefreshBefore = TimeSpan.FromMinutes(5);

    private static readonly TimeSpan AssertionLifetime = TimeSpan.FromHours(1);
    private static readonly JsonWebTokenHandler Handler = new() { SetDefaultTimesOnTokenCreation = false };

    private readonly RSA _key;
    private readonly SigningCredentials _credentials;
    private readonly string _clientEmail;
    private readonly Uri _tokenUrl;
    private readonly Func<HttpClient> _client;
    private readonly TimeProvider _time;
    private readonly SemaphoreSlim _refreshing = new(1, 1);
    private Issued? _current;

    /// <param name="account">The service account's key file, read.</param>
    /// <param name="tokenUrl">The token endpoint the assertion is exchanged at (and its audience).</param>
    /// <param name="client">The HTTP client token requests go through (the push clients' TLS trust and timeout).</param>
    /// <param name="time">The clock deciding when the cached token is due for refresh.</param>
    public FcmAccessTokens(FcmServiceAccount account, Uri tokenUrl, Func<HttpClient> client, TimeProvider time)
    {
        _key = RSA.Create();
        _key.ImportFromPem(account.PrivateKey);
        _credentials = new SigningCredentials(new RsaSecurityKey(_key) { KeyId = account.PrivateKeyId }, SecurityAlgorithms.RsaSha256);
        _clientEmail = account.ClientEmail!;
        _tokenUrl = tokenUrl;
        _client = client;
        _time = time;
        ProjectId = account.ProjectId;
    }

    /// <summary>The service account's project.</summary>
    public string? ProjectId { get; }

    /// <summary>The current access token: the cached one, or a new one when it is within <see cref="RefreshBefore"/> of expiry.</summary>
    public async Task<string> GetAsync(CancellationToken cancellationToken)
    {
        if (Fresh(Volatile.Read(ref _current)) is { } token)
        {
            return token;
        }

        await _refreshing.WaitAsync(cancellationToken);
        try
        {
            // Another handler may have refreshed it while this one waited.
            if (Fresh(_current) is { } refreshed)
            {
                return refreshed;
            }

            var issued = await RequestAsync(cancellationToken);
            Volatile.Write(ref _current, issued);
            return issued.Token;
        }
        finally
        {
            _refreshing.Release();
        }
    }

    /// <summary>FCM refused <paramref name="accessToken"/> (revoked, say): the next request gets a new one, unless it already has.</summary>
    public void Forget(string accessToken)
    {
        var current = Volatile.Read(ref _current);
        if (current?.Token == accessToken)
        {
            Interlocked.CompareExchange(ref _current, null, current);
        }
    }

    public void Dispose()
    {
        _key.Dispose();
        _refreshing.Dispose();
    }

    private string? Fresh(Issued? issued) => issued is not null && _time.GetUtcNow() < issued.Expires - RefreshBefore ? issued.Token : null;

    private async Task<Issued> RequestAsync(CancellationToken cancellationToken)
    {
        var now = _time.GetUtcNow();
        using var form = new FormUrlEncodedContent(new Dictionary<string, string> { ["grant_type"] = GrantType, ["assertion"] = Assertion(now) });
        using var response = await _client().PostAsync(_tokenUrl, form, cancellationToken);
        if (!response.IsSuccessStatusCode)
        {
            string error = await response.Content.ReadAsStringAsync(cancellationToken);
            throw new HttpRequestException($"the token endpoint answered {(int)response.StatusCode}: {error}", null, response.StatusCode);
        }

        var answer = await response.Content.ReadFromJsonAsync<TokenAnswer>(cancellationToken);
        if (answer is not { AccessToken: { Length: > 0 } token, ExpiresIn: > 0 })
        {
            throw new HttpRequestException("the token endpoint's answer has no access_token or expires_in");
        }

        return new Issued(token, now + TimeSpan.FromSeconds(answer.ExpiresIn));
    }

    private string Assertion(DateTimeOffset now) => Handler.CreateToken(new SecurityTokenDescriptor
    {
        Issuer = _clientEmail,
        Audience = _tokenUrl.ToString(),
        IssuedAt = now.UtcDateTime,
        Expires = (now + AssertionLifetime).UtcDateTime,
        Claims = new Dictionary<string, object> { ["scope"] = MessagingScope },
        SigningCredentials = _credentials,
    });

    private sealed record Issued(string Token, DateTimeOffset Expires);

    private sealed record TokenAnswer(
        [property: JsonPropertyName("access_token")] string? AccessToken,
        [property: JsonPropertyName("expires_in")] long ExpiresIn);
}
