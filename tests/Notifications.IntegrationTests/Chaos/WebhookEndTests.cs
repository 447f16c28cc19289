using System.Globalization;
using System.Text;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The oracle's webhook end on real HTTP requests (no consumer): what it counts as received, across a stop and a start
/// on the same port, from a slow receiver whose client gave up, and what it reports as a violation.
/// </summary>
public sealed class WebhookEndTests
{
    [Fact]
    public async Task CountByNotificationId_SignedCopiesAcrossAStop_CountsEachAcceptedCopy()
    {
        await using var end = await WebhookEnd.StartAsync();
        using var client = new HttpClient();

        Assert.Equal(200, await PostAsync(client, end, 1));
        Assert.Equal(200, await PostAsync(client, end, 2));
        Assert.Equal(200, await PostAsync(client, end, 2));
        await end.StopAsync();
        await Assert.ThrowsAsync<HttpRequestException>(() => PostAsync(client, end, 3));
        await end.StartAgainAsync();
        Assert.Equal(200, await PostAsync(client, end, 3));

        Assert.Equal(new Dictionary<long, int> { [1] = 1, [2] = 2, [3] = 1 }, end.CountByNotificationId());
        Assert.Equal(4, end.MessageCount());
        Assert.Empty(end.Violations());
    }

    [Fact]
    public async Task Slow_ClientGivesUpBeforeTheAnswer_CountedReceivedAndLate()
    {
        await using var end = await WebhookEnd.StartAsync();
        using var client = new HttpClient { Timeout = TimeSpan.FromMilliseconds(300) };

        end.Slow(TimeSpan.FromSeconds(3));
        await Assert.ThrowsAsync<TaskCanceledException>(() => PostAsync(client, end, 7));
        end.Normal();
        Assert.Equal(200, await PostAsync(client, end, 8));

        Assert.Equal(new Dictionary<long, int> { [7] = 1, [8] = 1 }, end.CountByNotificationId());
        Assert.Equal(1, end.LateAnswers);
    }

    [Fact]
    public async Task Violations_WrongSignature_ReportedAndNotCounted()
    {
        await using var end = await WebhookEnd.StartAsync();
        using var client = new HttpClient();

        Assert.Equal(401, await PostAsync(client, end, 9, secret: "whsec_" + Convert.ToBase64String(new byte[32])));

        Assert.Empty(end.CountByNotificationId());
        Assert.Contains("failed the receiver's signature check", Assert.Single(end.Violations()), StringComparison.Ordinal);
    }

    private static async Task<int> PostAsync(HttpClient client, WebhookEnd end, long id, string? secret = null)
    {
        string webhookId = id.ToString(CultureInfo.InvariantCulture);
        long timestamp = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        byte[] body = Encoding.UTF8.GetBytes("""{"type":"order.shipped","data":{"order":""" + webhookId + "}}");
        using var request = new HttpRequestMessage(HttpMethod.Post, end.Url) { Content = new ByteArrayContent(body) };
        request.Headers.Add(StandardWebhookVerifier.IdHeader, webhookId);
        request.Headers.Add(StandardWebhookVerifier.TimestampHeader, timestamp.ToString(CultureInfo.InvariantCulture));
        request.Headers.Add(StandardWebhookVerifier.SignatureHeader, StandardWebhookVerifier.Sign(secret ?? end.Secret, webhookId, timestamp, body));
        using var response = await client.SendAsync(request);
        return (int)response.StatusCode;
    }
}
