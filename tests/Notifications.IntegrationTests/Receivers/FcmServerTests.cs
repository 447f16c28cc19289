using System.Net;
using System.Security.Cryptography;
using System.Text.Json;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>The push server's FCM side and its OAuth2 token endpoint, over TLS and HTTP/2 from a real client.</summary>
public sealed class FcmServerTests : IAsyncLifetime
{
    private PushTestScope push = null!;

    public async Task InitializeAsync() => push = await PushTestScope.StartAsync(CancellationToken.None);

    public async Task DisposeAsync() => await push.DisposeAsync();

    [Fact]
    public async Task Token_AssertionSignedWithServiceAccountKey_IssuesBearerToken()
    {
        string assertion = push.Keys.CreateAssertion(push.Server.TokenUrl, DateTimeOffset.UtcNow, TimeSpan.FromHours(1));
        using var response = await push.Client.SendAsync(PushRequests.Token(push.Server.TokenUrl, assertion));

        Assert.Equal((HttpStatusCode.OK, HttpVersion.Version20), (response.StatusCode, response.Version));
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.StartsWith("ya29.", json.RootElement.GetProperty("access_token").GetString(), StringComparison.Ordinal);
        Assert.Equal((3599, "Bearer"), (json.RootElement.GetProperty("expires_in").GetInt32(), json.RootElement.GetProperty("token_type").GetString()));
    }

    [Fact]
    public async Task Token_AssertionSignedWithAnotherKey_InvalidGrant()
    {
        using var stranger = RSA.Create(2048);
        await AssertInvalidGrantAsync(push.Keys.CreateAssertion(push.Server.TokenUrl, DateTimeOffset.UtcNow, TimeSpan.FromHours(1), signWith: stranger));
    }

    [Fact]
    public async Task Token_ExpiredAssertion_InvalidGrant() =>
        await AssertInvalidGrantAsync(push.Keys.CreateAssertion(push.Server.TokenUrl, DateTimeOffset.UtcNow.AddHours(-2), TimeSpan.FromHours(1)));

    [Fact]
    public async Task Token_AssertionLivingOverAnHour_InvalidGrant() =>
        await AssertInvalidGrantAsync(push.Keys.CreateAssertion(push.Server.TokenUrl, DateTimeOffset.UtcNow, TimeSpan.FromHours(2)));

    [Fact]
    public async Task Token_AssertionIssuedInTheFuture_InvalidGrant() =>
        await AssertInvalidGrantAsync(push.Keys.CreateAssertion(push.Server.TokenUrl, DateTimeOffset.UtcNow.AddMinutes(10), TimeSpan.FromMinutes(50)));

    [Fact]
    public async Task Token_AssertionForAnotherAudience_InvalidGrant() =>
        await AssertInvalidGrantAsync(push.Keys.CreateAssertion(new Uri("https://oauth2.example.com/token"), DateTimeOffset.UtcNow, TimeSpan.FromHours(1)));

    [Fact]
    public async Task Token_AssertionWithoutMessagingScope_InvalidGrant() =>
        await AssertInvalidGrantAsync(push.Keys.CreateAssertion(push.Server.TokenUrl, DateTimeOffset.UtcNow, TimeSpan.FromHours(1), scope: "https://www.googleapis.com/auth/devstorage.read_only"));

    [Fact]
    public async Task Token_OtherGrantType_UnsupportedGrantType()
    {
        string assertion = push.Keys.CreateAssertion(push.Server.TokenUrl, DateTimeOffset.UtcNow, TimeSpan.FromHours(1));
        using var response = await push.Client.SendAsync(PushRequests.Token(push.Server.TokenUrl, assertion, grantType: "client_credentials"));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        Assert.Contains("unsupported_grant_type", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("ya29.never-issued")]
    public async Task Send_WithoutOrWithUnknownBearer_401Unauthenticated(string? bearer)
    {
        using var response = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("t1", "n1")));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Equal("UNAUTHENTICATED", Error(await response.Content.ReadAsStringAsync()).GetProperty("status").GetString());
    }

    [Fact]
    public async Task Send_ValidMessage_200NameAndRecordedPerNotificationId()
    {
        string bearer = await push.AccessTokenAsync();
        string id = Guid.NewGuid().ToString("N");
        using var response = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("device-1", id)));

        Assert.Equal((HttpStatusCode.OK, HttpVersion.Version20), (response.StatusCode, response.Version));
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.StartsWith($"projects/{push.Keys.ProjectId}/messages/", json.RootElement.GetProperty("name").GetString(), StringComparison.Ordinal);
        var request = Assert.Single(push.Server.Log.Requests);
        Assert.Equal(("fcm", "device-1", id, "HTTP/2"), (request.Provider, request.Token, request.NotificationId, request.Protocol));
        Assert.Equal((1, 1, 1), (push.Server.Log.CountFor(id), push.Server.Log.AcceptedCountFor(id), push.Server.TokenRequests));
    }

    [Theory]
    [InlineData(4096, HttpStatusCode.OK)]
    [InlineData(4097, HttpStatusCode.BadRequest)]
    public async Task Send_PayloadAtAndOverTheLimit_AcceptedThen400(int payloadBytes, HttpStatusCode expected)
    {
        string bearer = await push.AccessTokenAsync();
        using var response = await push.Client.SendAsync(
            PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("device-1", "n1", payloadBytes)));

        Assert.Equal(expected, response.StatusCode);
    }

    [Theory]
    [InlineData("""{"message":{"token":"d","data":{"n":12}}}""", "message.data[0].value")]
    [InlineData("""{"message":{"data":{"n":"1"}}}""", "registration token")]
    [InlineData("""{"message":{"token":"d","colour":"red"}}""", "Unknown name \"colour\"")]
    [InlineData("""{"message":{"token":"d","notification":"hi"}}""", "message.notification")]
    [InlineData("""{"token":"d"}""", "'message' is required")]
    [InlineData("""{"message":""", "Invalid JSON payload")]
    public async Task Send_InvalidMessage_400InvalidArgument(string body, string expectedInMessage)
    {
        string bearer = await push.AccessTokenAsync();
        using var response = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, body));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        var error = Error(await response.Content.ReadAsStringAsync());
        Assert.Equal("INVALID_ARGUMENT", error.GetProperty("status").GetString());
        Assert.Contains(expectedInMessage, error.GetProperty("message").GetString(), StringComparison.Ordinal);
    }

    [Fact]
    public async Task Send_TokenMarkedUnregistered_404Unregistered()
    {
        push.Server.Log.MarkUnregistered("gone-device");
        string bearer = await push.AccessTokenAsync();
        using var response = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("gone-device", "n1")));

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        var detail = Error(await response.Content.ReadAsStringAsync()).GetProperty("details")[0];
        Assert.Equal("type.googleapis.com/google.firebase.fcm.v1.FcmError", detail.GetProperty("@type").GetString());
        Assert.Equal("UNREGISTERED", detail.GetProperty("errorCode").GetString());
    }

    [Fact]
    public async Task Send_OtherProject_403PermissionDenied()
    {
        string bearer = await push.AccessTokenAsync();
        using var response = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, "someone-else", bearer, PushRequests.FcmBody("d", "n1")));

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
    }

    private async Task AssertInvalidGrantAsync(string assertion)
    {
        using var response = await push.Client.SendAsync(PushRequests.Token(push.Server.TokenUrl, assertion));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal("invalid_grant", json.RootElement.GetProperty("error").GetString());
    }

    private static JsonElement Error(string body)
    {
        using var json = JsonDocument.Parse(body);
        return json.RootElement.GetProperty("error").Clone();
    }
}
