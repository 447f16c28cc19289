using System.Net;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>The bootstrap operator account: its generated password signs in as an operator; a wrong one is refused with no session.</summary>
[Collection("services")]
public sealed class ConsoleBootstrapSignInTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    [Fact]
    public async Task BootstrapSignIn_RightPassword_IsOperator()
    {
        using var client = new ConsoleClient(fixture.Console);

        using var signedIn = await client.SignInWithPasswordAsync(ConsoleHost.BootstrapUser, fixture.Console.BootstrapPassword);

        Assert.Equal(HttpStatusCode.Redirect, signedIn.StatusCode);
        Assert.Equal("/", signedIn.Headers.Location?.OriginalString);
        string overview = await client.Http.GetStringAsync("/");
        Assert.Contains(">operator (operator)<", overview, StringComparison.Ordinal);
        Assert.Contains("id=\"run-cleanup\"", overview, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("operator", "wrong")]
    [InlineData("operator", "")]
    [InlineData("admin", null)]
    public async Task BootstrapSignIn_WrongUserOrPassword_IsRefused(string user, string? password)
    {
        using var client = new ConsoleClient(fixture.Console);

        // null: the right password with the wrong user name.
        using var refused = await client.SignInWithPasswordAsync(user, password ?? fixture.Console.BootstrapPassword);

        Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
        Assert.Contains("Wrong user or password.", await refused.Content.ReadAsStringAsync(), StringComparison.Ordinal);
        using var overview = await client.Http.GetAsync("/");
        Assert.Equal(HttpStatusCode.Redirect, overview.StatusCode);
        Assert.Equal("/signin", overview.Headers.Location?.AbsolutePath);
    }
}
