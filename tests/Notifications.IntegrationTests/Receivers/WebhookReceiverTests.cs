using System.Net;
using System.Text;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>The webhook receiver on a real socket, TLS and HTTP/2, reached by a real SocketsHttpHandler client.</summary>
public sealed class WebhookReceiverTests : IAsyncLifetime
{
    private const string Body = """{"type":"notification.sent","data":{"id":42}}""";
    private static readonly TimeSpan ClientTimeout = TimeSpan.FromSeconds(20);

    private readonly string oldSecret = WebhookRequests.NewSecret();
    private readonly string newSecret = WebhookRequests.NewSecret();
    private WebhookReceiver receiver = null!;
    private HttpClient client = null!;

    public async Task InitializeAsync()
    {
        receiver = await WebhookReceiver.StartAsync([oldSecret, newSecret], plainHttp: true, CancellationToken.None);
        client = receiver.Certificate.CreateClient(HttpVersion.Version20, ClientTimeout);
    }

    public async Task DisposeAsync()
    {
        client.Dispose();
        await receiver.DisposeAsync();
    }

    [Fact]
    public async Task Post_SignedOverHttp2_RecordedVerifiedAsSent()
    {
        string id = NewId();
        using var response = await client.SendAsync(WebhookRequests.Signed(receiver.Url, id, DateTimeOffset.UtcNow, Body, newSecret));

        Assert.Equal((HttpStatusCode.OK, HttpVersion.Version20), (response.StatusCode, response.Version));
        var delivery = Assert.Single(receiver.Deliveries);
        Assert.True(delivery.Verdict.Verified, delivery.Verdict.Reason);
        Assert.Equal((id, Body, 200), (delivery.Id, Encoding.UTF8.GetString(delivery.Body), delivery.AnsweredStatus));
        Assert.StartsWith("v1,", delivery.Headers[StandardWebhookVerifier.SignatureHeader], StringComparison.Ordinal);
        Assert.Equal((1, 1), (receiver.CountFor(id), receiver.VerifiedCountFor(id)));
    }

    [Fact]
    public async Task Post_WrongSecret_Refused401AndRecordedUnverified()
    {
        string id = NewId();
        using var response = await client.SendAsync(WebhookRequests.Signed(receiver.Url, id, DateTimeOffset.UtcNow, Body, WebhookRequests.NewSecret()));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        var delivery = Assert.Single(receiver.Deliveries);
        Assert.False(delivery.Verdict.Verified);
        Assert.Contains("no v1 signature", delivery.Verdict.Reason, StringComparison.Ordinal);
        Assert.Equal((1, 0), (receiver.CountFor(id), receiver.VerifiedCountFor(id)));
    }

    [Fact]
    public async Task Post_TimestampSixMinutesOld_Refused401()
    {
        using var response = await client.SendAsync(
            WebhookRequests.Signed(receiver.Url, NewId(), DateTimeOffset.UtcNow.AddMinutes(-6), Body, newSecret));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Contains("tolerance", Assert.Single(receiver.Deliveries).Verdict.Reason, StringComparison.Ordinal);
    }

    [Fact]
    public async Task Post_BodyTamperedAfterSigning_Refused401()
    {
        var request = WebhookRequests.Signed(receiver.Url, NewId(), DateTimeOffset.UtcNow, Body, newSecret);
        request.Content = new StringContent(Body.Replace("42", "43", StringComparison.Ordinal), Encoding.UTF8, "application/json");
        using var response = await client.SendAsync(request);

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.False(Assert.Single(receiver.Deliveries).Verdict.Verified);
    }

    [Fact]
    public async Task Post_NoSignatureHeader_Refused400()
    {
        long now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        using var response = await client.SendAsync(
            WebhookRequests.Build(receiver.Url, NewId(), now.ToString(System.Globalization.CultureInfo.InvariantCulture), null, Encoding.UTF8.GetBytes(Body)));

        Assert.Equal(HttpStatusCode.BadRequest, response.StatusCode);
    }

    [Fact]
    public async Task Post_DuringRotation_EitherSecretOrBothVerifiedAThirdRefused()
    {
        string id = NewId();
        var now = DateTimeOffset.UtcNow;
        var statuses = new List<HttpStatusCode>();
        foreach (string[] signWith in (string[][])[[oldSecret], [newSecret], [newSecret, oldSecret], [WebhookRequests.NewSecret()]])
        {
            using var response = await client.SendAsync(WebhookRequests.Signed(receiver.Url, id, now, Body, signWith));
            statuses.Add(response.StatusCode);
        }

        Assert.Equal([HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.Unauthorized], statuses);
        Assert.Equal((4, 3), (receiver.CountFor(id), receiver.VerifiedCountFor(id)));
    }

    [Fact]
    public async Task Post_PlainHttpOnLoopback_Verified()
    {
        using var plain = new HttpClient { Timeout = ClientTimeout };
        using var response = await plain.SendAsync(WebhookRequests.Signed(receiver.PlainUrl!, NewId(), DateTimeOffset.UtcNow, Body, oldSecret));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("http", receiver.PlainUrl!.Scheme);
        Assert.True(Assert.Single(receiver.Deliveries).Verdict.Verified);
    }

    [Fact]
    public async Task Post_UntrustedClientCertificateCheck_FailsTls()
    {
        // A client that trusts another certificate must not get through: the pinning is real.
        using var other = TestCertificate.Create();
        using var stranger = other.CreateClient(HttpVersion.Version20, ClientTimeout);

        await Assert.ThrowsAsync<HttpRequestException>(() =>
            stranger.SendAsync(WebhookRequests.Signed(receiver.Url, NewId(), DateTimeOffset.UtcNow, Body, newSecret)));
        Assert.Empty(receiver.Deliveries);
    }

    private static string NewId() => "msg_" + Guid.NewGuid().ToString("N");
}
