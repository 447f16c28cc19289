using System.Net;
using System.Text.RegularExpressions;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// An HTTP client of the console with its own cookies, signing in as a browser would: through the OpenID Connect provider's login
/// form, or with the bootstrap account's form. Redirects are not followed unless asked, so each answer can be checked.
/// </summary>
internal sealed partial class ConsoleClient(ConsoleHost console) : IDisposable
{
    private readonly CookieContainer _cookies = new();
    private HttpClient? _http;

    public HttpClient Http => _http ??= new HttpClient(new HttpClientHandler { CookieContainer = _cookies, AllowAutoRedirect = false }) { BaseAddress = console.Address };

    /// <summary>Signs in through the provider: the console's button, the provider's form, back to the overview.</summary>
    public async Task SignInWithProviderAsync(ProviderAccount account)
    {
        using var browser = Following();
        string token = await TokenAsync("/signin");
        var atProvider = await browser.PostAsync(new Uri(console.Address, "/signin?handler=Oidc"), Form(("__RequestVerificationToken", token), ("returnUrl", "/")));
        string form = await atProvider.EnsureSuccessStatusCode().Content.ReadAsStringAsync();
        string returnUrl = WebUtility.HtmlDecode(ReturnUrlField().Match(form).Groups[1].Value);
        var back = await browser.PostAsync(new Uri(console.Provider.Authority, "/login"),
            Form(("returnUrl", returnUrl), ("username", account.Name), ("password", account.Password)));
        Assert.Equal(new Uri(console.Address, "/"), back.EnsureSuccessStatusCode().RequestMessage!.RequestUri);
    }

    /// <summary>Posts the bootstrap account's form; the answer as it comes (302 signed in, 401 refused).</summary>
    public async Task<HttpResponseMessage> SignInWithPasswordAsync(string user, string password) =>
        await Http.PostAsync("/signin?handler=Password",
            Form(("__RequestVerificationToken", await TokenAsync("/signin")), ("user", user), ("password", password), ("returnUrl", "/")));

    /// <summary>The antiforgery token of this session, read from a form of <paramref name="page"/>.</summary>
    public async Task<string> TokenAsync(string page)
    {
        string html = await (await Http.GetAsync(page)).EnsureSuccessStatusCode().Content.ReadAsStringAsync();
        return TokenField().Match(html) is { Success: true } match ? match.Groups[1].Value : throw new InvalidOperationException($"no antiforgery token in {page}");
    }

    public static FormUrlEncodedContent Form(params (string Key, string Value)[] fields) =>
        new(fields.Select(f => new KeyValuePair<string, string>(f.Key, f.Value)));

    public void Dispose() => _http?.Dispose();

    // The same cookies, redirects followed: the round trip to the provider and back.
    private HttpClient Following() => new(new HttpClientHandler { CookieContainer = _cookies, AllowAutoRedirect = true });

    [GeneratedRegex("name=\"__RequestVerificationToken\" type=\"hidden\" value=\"([^\"]+)\"")]
    private static partial Regex TokenField();

    [GeneratedRegex("name=\"returnUrl\" value=\"([^\"]+)\"")]
    private static partial Regex ReturnUrlField();
}
