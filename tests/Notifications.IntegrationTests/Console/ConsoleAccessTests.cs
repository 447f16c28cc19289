using System.Net;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The console is closed by default: every route of the running app (from its EndpointDataSource, so a new page is covered
/// without being listed) refuses an anonymous request; a viewer's action is 403; a form post without the antiforgery token is 400.
/// </summary>
[Collection("services")]
public sealed class ConsoleAccessTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    // The only pages an anonymous visitor may reach: signing in and out.
    private static readonly string[] AnonymousRoutes = ["signin", "signout"];

    [Fact]
    public async Task AnonymousRequest_EveryRoute_IsRefused()
    {
        var routes = fixture.Console.App.Services.GetRequiredService<EndpointDataSource>().Endpoints.OfType<RouteEndpoint>().ToList();
        Assert.Contains(routes, r => r.RoutePattern.RawText == "" || r.RoutePattern.RawText == "/");
        Assert.Equal(AnonymousRoutes, routes.Where(r => r.Metadata.GetMetadata<IAllowAnonymous>() is not null)
            .Select(r => r.RoutePattern.RawText!.Trim('/')).Order().ToArray());

        using var client = new ConsoleClient(fixture.Console);
        foreach (var route in routes.Where(r => r.Metadata.GetMetadata<IAllowAnonymous>() is null))
        {
            // A route parameter gets a value its constraint takes ({id:long}): one that fails would be 404 before authorization.
            string path = "/" + string.Join('/', route.RoutePattern.PathSegments.Select(s => s.IsSimple && s.Parts[0] is Microsoft.AspNetCore.Routing.Patterns.RoutePatternLiteralPart literal ? literal.Content : "1"));
            foreach (var method in new[] { HttpMethod.Get, HttpMethod.Post })
            {
                using var response = await client.Http.SendAsync(new HttpRequestMessage(method, path + "?handler=Figures"));
                Assert.True(IsRefused(response), $"{method} {path} anonymous: {(int)response.StatusCode} {response.Headers.Location}");
            }
        }
    }

    [Fact]
    public async Task ViewerPost_OperatorAction_Is403_AnOperatorsRuns()
    {
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);
        using var refused = await viewer.Http.PostAsync("/?handler=Cleanup", ConsoleClient.Form(("__RequestVerificationToken", await viewer.TokenAsync("/"))));
        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);

        using var @operator = new ConsoleClient(fixture.Console);
        await @operator.SignInWithProviderAsync(OidcProviderProcess.Operator);
        using var run = await @operator.Http.PostAsync("/?handler=Cleanup", ConsoleClient.Form(("__RequestVerificationToken", await @operator.TokenAsync("/"))));
        Assert.Equal(HttpStatusCode.Redirect, run.StatusCode);
        Assert.Matches(@"Retention cleanup: \d+ delivery-log row", await @operator.Http.GetStringAsync("/"));
    }

    [Fact]
    public async Task OperatorPost_WithoutAntiforgeryToken_Is400()
    {
        using var @operator = new ConsoleClient(fixture.Console);
        await @operator.SignInWithProviderAsync(OidcProviderProcess.Operator);

        using var forged = await @operator.Http.PostAsync("/?handler=Cleanup", ConsoleClient.Form(("note", "from another site")));

        Assert.Equal(HttpStatusCode.BadRequest, forged.StatusCode);
    }

    // Refused: sent to sign in (302 to /signin), or 401/403; never a page.
    private static bool IsRefused(HttpResponseMessage response) =>
        response.StatusCode is HttpStatusCode.Unauthorized or HttpStatusCode.Forbidden
        || (response.StatusCode == HttpStatusCode.Redirect && response.Headers.Location?.AbsolutePath == "/signin");
}
