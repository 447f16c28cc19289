using Notifications.Client.Live;
using Notifications.IntegrationTests.Live;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The live connections page on a real gateway: an app connected for one subscriber shows it connected with its pending rows,
/// read from the gateway's <c>/presence</c> and <c>live_pending</c>; a subscriber with rows but no connection is not listed.
/// </summary>
[Collection("services")]
public sealed class ConsoleLivePageTests
{
    [Fact]
    public async Task LivePage_OneAppConnected_ItsSubscriberWithConnectionsAndPendingRows_TheOtherNot()
    {
        await using var gateway = await LiveGateway.StartAsync();
        await LiveGateway.InsertAsync("ana", 301, 302, 303);
        await LiveGateway.InsertAsync("bo", 401);
        await using var console = await ConsoleHost.StartAsync(new Dictionary<string, string?>
        {
            ["Console:Workers:0:Name"] = "gateway-1",
            ["Console:Workers:0:Url"] = gateway.OperationsUri.ToString(),
        });
        await using var app = new LiveClient(new LiveClientOptions
        {
            Uri = gateway.LiveUri,
            TokenProvider = _ => ValueTask.FromResult(LiveTokens.Mint(gateway.Key, "ana", TimeSpan.FromMinutes(5))),
        });
        using var stop = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await using var reader = app.ReadAllAsync(stop.Token).GetAsyncEnumerator(stop.Token);
        Assert.True(await reader.MoveNextAsync());   // the first replayed row: the app is connected (nothing acked)
        using var viewer = new ConsoleClient(console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        string page = await viewer.Http.GetStringAsync("/live");

        Assert.Matches("data-gateway=\"gateway-1\">\\s*<td>gateway-1</td>\\s*<td class=\"n\">1</td>\\s*<td class=\"n\">1</td>", page);
        Assert.Matches("data-subscriber=\"ana\">\\s*<td><a href=\"/subscribers\\?q=ana\">ana</a></td>\\s*<td class=\"n\">1</td>\\s*<td class=\"n pending\">3</td>", page);
        Assert.DoesNotContain("data-subscriber=\"bo\"", page, StringComparison.Ordinal);
    }
}
