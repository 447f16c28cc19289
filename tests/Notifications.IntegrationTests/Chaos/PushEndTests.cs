using System.Net;
using Notifications.IntegrationTests.Receivers;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>The oracle's push end on real requests to the push server (no consumer): what counts as received, refused, a violation.</summary>
public sealed class PushEndTests
{
    [Fact]
    public async Task CountByNotificationId_CredentialsRevokedForOneRequest_CountsOnlyAccepted()
    {
        await using var end = await PushEnd.StartAsync();
        using var client = end.Server.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(20));
        string bearer = await PushRequests.AccessTokenAsync(client, end.Server, end.Keys);

        Assert.Equal(HttpStatusCode.OK, await SendAsync(client, end, bearer, "11"));
        end.Revoke();
        Assert.Equal(HttpStatusCode.Unauthorized, await SendAsync(client, end, bearer, "12"));
        end.Restore();
        Assert.Equal(HttpStatusCode.OK, await SendAsync(client, end, bearer, "12"));

        Assert.Equal(new Dictionary<long, int> { [11] = 1, [12] = 1 }, end.CountByNotificationId());
        Assert.Equal(1, end.Refused);
        Assert.Empty(end.Violations());
    }

    [Fact]
    public async Task Violations_BearerTheServerNeverIssued_ReportedAndNotCounted()
    {
        await using var end = await PushEnd.StartAsync();
        using var client = end.Server.Certificate.CreateClient(HttpVersion.Version20, TimeSpan.FromSeconds(20));

        Assert.Equal(HttpStatusCode.Unauthorized, await SendAsync(client, end, "not-a-token", "13"));

        Assert.Empty(end.CountByNotificationId());
        Assert.Contains("failed the push server's checks", Assert.Single(end.Violations()), StringComparison.Ordinal);
    }

    private static async Task<HttpStatusCode> SendAsync(HttpClient client, PushEnd end, string bearer, string id)
    {
        using var response = await client.SendAsync(PushRequests.FcmSend(end.Server, end.Keys.ProjectId, bearer, PushRequests.FcmBody("d", id)));
        return response.StatusCode;
    }
}
