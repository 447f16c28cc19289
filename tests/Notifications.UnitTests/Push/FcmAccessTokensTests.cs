using System.Net;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using Microsoft.IdentityModel.JsonWebTokens;
using Notifications.Consumer.Channels.Push.Fcm;
using Notifications.UnitTests.Consumer;

namespace Notifications.UnitTests.Push;

/// <summary>The FCM access token: one token request, reused until shortly before it expires, then a new one.</summary>
public sealed class FcmAccessTokensTests
{
    private static readonly Uri TokenUrl = new("https://oauth.test.invalid/token");

    [Fact]
    public async Task GetAsync_TokenValid_RequestedOnceAndReused()
    {
        var (tokens, endpoint, _) = Create();

        string first = await tokens.GetAsync(CancellationToken.None);
        string second = await tokens.GetAsync(CancellationToken.None);

        Assert.Equal("token-1", first);
        Assert.Equal(first, second);
        Assert.Equal(1, endpoint.Requests);
    }

    [Fact]
    public async Task GetAsync_NearExpiry_RequestsANewToken()
    {
        var (tokens, endpoint, time) = Create();
        await tokens.GetAsync(CancellationToken.None);

        time.Advance(TimeSpan.FromMinutes(58));
        string renewed = await tokens.GetAsync(CancellationToken.None);

        Assert.Equal("token-2", renewed);
        Assert.Equal(2, endpoint.Requests);
    }

    [Fact]
    public async Task Forget_CurrentTokenRefused_NextGetRequestsANewOneAStaleForgetDropsNothing()
    {
        var (tokens, endpoint, _) = Create();
        string refused = await tokens.GetAsync(CancellationToken.None);

        tokens.Forget(refused);
        string fresh = await tokens.GetAsync(CancellationToken.None);
        tokens.Forget(refused);
        string still = await tokens.GetAsync(CancellationToken.None);

        Assert.Equal(("token-2", "token-2"), (fresh, still));
        Assert.Equal(2, endpoint.Requests);
    }

    [Fact]
    public async Task GetAsync_Assertion_IsRs256ForTheServiceAccountTokenUrlAndMessagingScope()
    {
        var (tokens, endpoint, time) = Create();

        await tokens.GetAsync(CancellationToken.None);

        var form = endpoint.LastForm!;
        Assert.Equal(FcmAccessTokens.GrantType, form["grant_type"]);
        var jwt = new JsonWebToken(form["assertion"]);
        Assert.Equal(("RS256", "key-1"), (jwt.Alg, jwt.Kid));
        Assert.Equal("sender@project.iam.gserviceaccount.com", jwt.Issuer);
        Assert.Equal([TokenUrl.ToString()], jwt.Audiences);
        Assert.Equal(FcmAccessTokens.MessagingScope, jwt.GetPayloadValue<string>("scope"));
        Assert.Equal(time.GetUtcNow().ToUnixTimeSeconds(), new DateTimeOffset(jwt.IssuedAt, TimeSpan.Zero).ToUnixTimeSeconds());
    }

    private static (FcmAccessTokens Tokens, TokenEndpoint Endpoint, ManualTime Time) Create()
    {
        using var rsa = RSA.Create(2048);
        var account = new FcmServiceAccount("sender@project.iam.gserviceaccount.com", rsa.ExportPkcs8PrivateKeyPem(), "key-1", "project", null);
        var endpoint = new TokenEndpoint();
        var time = new ManualTime(DateTimeOffset.UtcNow);
        return (new FcmAccessTokens(account, TokenUrl, () => new HttpClient(endpoint, disposeHandler: false), time), endpoint, time);
    }

    // Google's token endpoint as the credential sees it: a token valid for an hour per request.
    private sealed class TokenEndpoint : HttpMessageHandler
    {
        private int _requests;

        public int Requests => _requests;

        public Dictionary<string, string>? LastForm { get; private set; }

        protected override async Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            string body = await request.Content!.ReadAsStringAsync(cancellationToken);
            LastForm = body.Split('&').Select(p => p.Split('=')).ToDictionary(p => p[0], p => WebUtility.UrlDecode(p[1]));
            int n = Interlocked.Increment(ref _requests);
            string json = JsonSerializer.Serialize(new { access_token = $"token-{n}", expires_in = 3600, token_type = "Bearer" });
            return new HttpResponseMessage(HttpStatusCode.OK) { Content = new StringContent(json, Encoding.UTF8, "application/json") };
        }
    }
}
