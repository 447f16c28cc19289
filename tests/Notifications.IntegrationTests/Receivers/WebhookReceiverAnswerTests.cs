using System.Net;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>Answers a test scripts on the webhook receiver, as the client observes them.</summary>
public sealed class WebhookReceiverAnswerTests : IAsyncLifetime
{
    private const string Body = """{"type":"notification.sent"}""";

    private readonly string secret = WebhookRequests.NewSecret();
    private WebhookReceiver receiver = null!;
    private HttpClient client = null!;

    public async Task InitializeAsync()
    {
        receiver = await WebhookReceiver.StartAsync([secret], ct: CancellationToken.None);
        client = receiver.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(20));
    }

    public async Task DisposeAsync()
    {
        client.Dispose();
        await receiver.DisposeAsync();
    }

    [Theory]
    [InlineData(HttpStatusCode.OK)]
    [InlineData(HttpStatusCode.NoContent)]
    [InlineData(HttpStatusCode.BadRequest)]
    [InlineData(HttpStatusCode.Gone)]
    [InlineData(HttpStatusCode.InternalServerError)]
    public async Task Always_Status_EveryDeliveryGetsIt(HttpStatusCode status)
    {
        receiver.Script.Always(ScriptedAnswer.With(status));

        var seen = new List<HttpStatusCode> { await SendAsync(), await SendAsync() };

        Assert.Equal([status, status], seen);
        Assert.All(receiver.Deliveries, d => Assert.True(d.Verdict.Verified));
    }

    [Fact]
    public async Task Next_Two503WithRetryAfter_ClientSeesThemThenTheVerdict()
    {
        receiver.Script.Next(2, ScriptedAnswer.With(HttpStatusCode.ServiceUnavailable, TimeSpan.FromSeconds(30)));
        var retryAfters = new List<TimeSpan?>();
        var statuses = new List<HttpStatusCode>();
        for (int i = 0; i < 3; i++)
        {
            using var response = await client.SendAsync(Signed());
            statuses.Add(response.StatusCode);
            retryAfters.Add(response.Headers.RetryAfter?.Delta);
        }

        Assert.Equal([HttpStatusCode.ServiceUnavailable, HttpStatusCode.ServiceUnavailable, HttpStatusCode.OK], statuses);
        Assert.Equal([TimeSpan.FromSeconds(30), TimeSpan.FromSeconds(30), null], retryAfters);
    }

    [Fact]
    public async Task Next_One429WithRetryAfter_ClientSeesRetryAfter()
    {
        receiver.Script.Next(1, ScriptedAnswer.With(HttpStatusCode.TooManyRequests, TimeSpan.FromSeconds(7)));

        using var response = await client.SendAsync(Signed());

        Assert.Equal((HttpStatusCode.TooManyRequests, TimeSpan.FromSeconds(7)), (response.StatusCode, response.Headers.RetryAfter?.Delta));
        Assert.Equal(429, Assert.Single(receiver.Deliveries).AnsweredStatus);
    }

    [Fact]
    public async Task Always_Hang_ClientTimesOutAndDeliveryIsRecordedUnanswered()
    {
        receiver.Script.Always(ScriptedAnswer.Never);
        using var impatient = receiver.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(1));

        var thrown = await Assert.ThrowsAsync<TaskCanceledException>(() => impatient.SendAsync(Signed()));

        Assert.IsType<TimeoutException>(thrown.InnerException);
        var delivery = Assert.Single(receiver.Deliveries);
        Assert.Null(delivery.AnsweredStatus);
        receiver.Script.Reset();
        Assert.Equal(HttpStatusCode.OK, await SendAsync());
    }

    [Fact]
    public async Task Always_StatusThenBadSignature_ScriptWinsVerdictStillRecorded()
    {
        receiver.Script.Always(ScriptedAnswer.With(HttpStatusCode.NoContent));

        using var response = await client.SendAsync(
            WebhookRequests.Signed(receiver.Url, "msg_x", DateTimeOffset.UtcNow, Body, WebhookRequests.NewSecret()));

        Assert.Equal(HttpStatusCode.NoContent, response.StatusCode);
        Assert.False(Assert.Single(receiver.Deliveries).Verdict.Verified);
    }

    private HttpRequestMessage Signed() =>
        WebhookRequests.Signed(receiver.Url, "msg_" + Guid.NewGuid().ToString("N"), DateTimeOffset.UtcNow, Body, secret);

    private async Task<HttpStatusCode> SendAsync()
    {
        using var response = await client.SendAsync(Signed());
        return response.StatusCode;
    }
}
