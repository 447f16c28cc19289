using System.Net;
using System.Text.Json;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Receivers;

/// <summary>Answers a test scripts on the push server, per provider, as the client observes them.</summary>
public sealed class PushServerAnswerTests : IAsyncLifetime
{
    private PushTestScope push = null!;

    public async Task InitializeAsync() => push = await PushTestScope.StartAsync(CancellationToken.None);

    public async Task DisposeAsync() => await push.DisposeAsync();

    [Fact]
    public async Task FcmNext_One429WithRetryAfter_QuotaExceededThenAccepted()
    {
        string bearer = await push.AccessTokenAsync();
        push.Server.FcmScript.Next(1, ScriptedAnswer.With(HttpStatusCode.TooManyRequests, TimeSpan.FromSeconds(12)));

        using var first = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("d", "n1")));
        using var second = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("d", "n1")));

        Assert.Equal((HttpStatusCode.TooManyRequests, TimeSpan.FromSeconds(12)), (first.StatusCode, first.Headers.RetryAfter?.Delta));
        Assert.Contains("QUOTA_EXCEEDED", await first.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, second.StatusCode);
        Assert.Equal((2, 1), (push.Server.Log.CountFor("n1"), push.Server.Log.AcceptedCountFor("n1")));
    }

    [Theory]
    [InlineData(HttpStatusCode.InternalServerError, "INTERNAL")]
    [InlineData(HttpStatusCode.ServiceUnavailable, "UNAVAILABLE")]
    public async Task FcmAlways_ServerError_ClientSeesGoogleStatus(HttpStatusCode status, string googleStatus)
    {
        string bearer = await push.AccessTokenAsync();
        push.Server.FcmScript.Always(ScriptedAnswer.With(status));

        using var response = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("d", "n1")));

        Assert.Equal(status, response.StatusCode);
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal(googleStatus, json.RootElement.GetProperty("error").GetProperty("status").GetString());
    }

    [Fact]
    public async Task FcmAlways_Hang_ClientTimesOutRequestRecordedUnanswered()
    {
        string bearer = await push.AccessTokenAsync();
        push.Server.FcmScript.Always(ScriptedAnswer.Never);
        using var impatient = push.Server.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(1));

        var thrown = await Assert.ThrowsAsync<TaskCanceledException>(() =>
            impatient.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("d", "n-hang"))));

        Assert.IsType<TimeoutException>(thrown.InnerException);
        Assert.Null(Assert.Single(push.Server.Log.Requests).AnsweredStatus);
    }

    [Theory]
    [InlineData(HttpStatusCode.TooManyRequests, "TooManyRequests")]
    [InlineData(HttpStatusCode.InternalServerError, "InternalServerError")]
    [InlineData(HttpStatusCode.ServiceUnavailable, "ServiceUnavailable")]
    public async Task ApnsNext_OneError_ClientSeesApnsReasonThenAccepted(HttpStatusCode status, string reason)
    {
        push.Server.ApnsScript.Next(1, ScriptedAnswer.With(status, TimeSpan.FromSeconds(5)));
        string device = PushRequests.NewDeviceToken();

        using var first = await push.Client.SendAsync(PushRequests.ApnsSend(push.Server, device, push.ProviderToken, PushRequests.ApnsPayload("n1")));
        using var second = await push.Client.SendAsync(PushRequests.ApnsSend(push.Server, device, push.ProviderToken, PushRequests.ApnsPayload("n1")));

        Assert.Equal((status, TimeSpan.FromSeconds(5)), (first.StatusCode, first.Headers.RetryAfter?.Delta));
        using var json = JsonDocument.Parse(await first.Content.ReadAsStringAsync());
        Assert.Equal(reason, json.RootElement.GetProperty("reason").GetString());
        Assert.Equal(HttpStatusCode.OK, second.StatusCode);
    }

    [Fact]
    public async Task ApnsAlways_Hang_ClientTimesOutFcmUnaffected()
    {
        push.Server.ApnsScript.Always(ScriptedAnswer.Never);
        using var impatient = push.Server.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(1));

        await Assert.ThrowsAsync<TaskCanceledException>(() =>
            impatient.SendAsync(PushRequests.ApnsSend(push.Server, PushRequests.NewDeviceToken(), push.ProviderToken, PushRequests.ApnsPayload("n-hang"))));

        string bearer = await push.AccessTokenAsync();
        using var fcm = await push.Client.SendAsync(PushRequests.FcmSend(push.Server, push.Keys.ProjectId, bearer, PushRequests.FcmBody("d", "n2")));
        Assert.Equal(HttpStatusCode.OK, fcm.StatusCode);
        Assert.Equal(1, push.Server.Log.CountFor("n-hang"));
    }
}
