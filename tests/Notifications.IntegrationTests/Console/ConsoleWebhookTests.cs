using System.Net;
using System.Text.RegularExpressions;
using Microsoft.Extensions.DependencyInjection;
using Notifications.Admin;
using Notifications.Shared.Data;

namespace Notifications.IntegrationTests.WebConsole;

/// <summary>
/// The webhook endpoints page: an operator adds an endpoint and rotates its secret, each new secret shown once in the answer to
/// its POST (the one in the table, never again on the page); disables and enables it (the table's state); subscribes it to an
/// outcome event type and unsubscribes it (the table and the stored subscriptions); a viewer's rotation is 403 and changes nothing.
/// </summary>
[Collection("services")]
public sealed partial class ConsoleWebhookTests(ConsoleFixture fixture) : IClassFixture<ConsoleFixture>
{
    private IWebhookEndpointStore Store => fixture.Console.App.Services.GetRequiredService<AdminContext>().WebhookEndpoints;

    [Fact]
    public async Task OperatorAddAndRotate_SecretShownOnceInThePostsAnswer_NeverOnAReload()
    {
        string name = Unique();
        using var @operator = new ConsoleClient(fixture.Console);
        await @operator.SignInWithProviderAsync(OidcProviderProcess.Operator);

        string added = await PostAsync(@operator, "Add", ("name", name), ("url", "https://127.0.0.1:9/hook?token=receivers"), ("allowPrivate", "true"));
        string first = ShownSecret(added);
        Assert.Equal((await Store.FindAsync(name, CancellationToken.None))!.Secret, first);
        Assert.DoesNotContain("token=receivers", added);

        string rotated = await PostAsync(@operator, "Rotate", ("name", name), ("overlap", "1h"));
        string second = ShownSecret(rotated);
        var endpoint = (await Store.FindAsync(name, CancellationToken.None))!;
        Assert.NotEqual(first, second);
        Assert.Equal((second, first), (endpoint.Secret, endpoint.PreviousSecret));

        // Decoded: Razor writes a secret's '+' as &#x2B;, so the raw page would not contain it even if it were there.
        string reloaded = WebUtility.HtmlDecode(await @operator.Http.GetStringAsync("/webhooks"));
        Assert.Contains($"endpoint-{name}", reloaded);
        Assert.DoesNotContain(second, reloaded);
        Assert.DoesNotContain(first, reloaded);
        Assert.DoesNotContain("id=\"secret\"", reloaded);
    }

    [Fact]
    public async Task OperatorDisableThenEnable_TheTableSaysSo()
    {
        string name = await AddEndpointAsync("whsec_dGVzdHRlc3R0ZXN0dGVzdHRlc3R0ZXN0dGVzdA==");
        using var @operator = new ConsoleClient(fixture.Console);
        await @operator.SignInWithProviderAsync(OidcProviderProcess.Operator);

        string disabled = await PostAsync(@operator, "Disable", ("name", name), ("reason", "receiver down"));
        var endpoint = (await Store.FindAsync(name, CancellationToken.None))!;
        Assert.NotNull(endpoint.DisabledAt);
        Assert.Equal($"receiver down (by {OidcProviderProcess.Operator.Name}, console)", endpoint.DisabledReason);
        Assert.Contains($"Disabled webhook endpoint {name}.", disabled);
        Assert.Matches($"id=\"endpoint-{name}\"(.|\\n)*?disabled [0-9-]+ [0-9:]+: receiver down", disabled);

        string enabled = await PostAsync(@operator, "Enable", ("name", name));
        Assert.Null((await Store.FindAsync(name, CancellationToken.None))!.DisabledAt);
        Assert.Contains($"Enabled webhook endpoint {name}.", enabled);
    }

    [Fact]
    public async Task OperatorSubscribeThenUnsubscribe_TheTableAndTheSubscriptionsSaySo_AnUnknownTypeIsRefused()
    {
        string name = await AddEndpointAsync("whsec_c3Vic2NyaWJlc3Vic2NyaWJlc3Vic2NyaWJlcw==");
        using var @operator = new ConsoleClient(fixture.Console);
        await @operator.SignInWithProviderAsync(OidcProviderProcess.Operator);

        string subscribed = await PostAsync(@operator, "Subscribe", ("name", name), ("type", "notification.bounced"));
        Assert.Contains($"Subscribed webhook endpoint {name}: notification.bounced.", subscribed);
        Assert.Equal(["notification.bounced"], await SubscribedAsync(name));
        Assert.Matches(BouncedInRow(name), subscribed);

        string refused = await PostAsync(@operator, "Subscribe", ("name", name), ("type", "notification.opened"));
        Assert.Contains("unknown event type &#x27;notification.opened&#x27;", refused);
        Assert.Equal(["notification.bounced"], await SubscribedAsync(name));

        string unsubscribed = await PostAsync(@operator, "Unsubscribe", ("name", name), ("type", "notification.bounced"));
        Assert.Contains($"Unsubscribed webhook endpoint {name}: notification.bounced.", unsubscribed);
        Assert.Empty(await SubscribedAsync(name));
        Assert.DoesNotMatch(BouncedInRow(name), unsubscribed);
    }

    [Fact]
    public async Task ViewerRotate_Is403_SecretUnchanged()
    {
        const string Secret = "whsec_dmlld2Vydmlld2Vydmlld2Vydmlld2Vydmlldw==";
        string name = await AddEndpointAsync(Secret);
        using var viewer = new ConsoleClient(fixture.Console);
        await viewer.SignInWithProviderAsync(OidcProviderProcess.Viewer);

        using var refused = await viewer.Http.PostAsync("/webhooks?handler=Rotate", ConsoleClient.Form(
            ("__RequestVerificationToken", await viewer.TokenAsync("/webhooks")), ("name", name), ("overlap", "0")));

        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Equal(Secret, (await Store.FindAsync(name, CancellationToken.None))!.Secret);
    }

    // An endpoint of a name of its own (a private address, allowed), as the store adds it.
    private async Task<string> AddEndpointAsync(string secret)
    {
        string name = Unique();
        await Store.AddAsync(name, "https://127.0.0.1:9/hook", secret, true, CancellationToken.None);
        return name;
    }

    // Within the endpoint's own row: other tests' endpoints may take the type too.
    private static string BouncedInRow(string name) => $"id=\"endpoint-{name}\"((?!</tr>)(.|\\n))*data-type=\"notification.bounced\"";

    private async Task<List<string>> SubscribedAsync(string name) =>
        [.. (await fixture.Console.App.Services.GetRequiredService<AdminContext>().OutcomeEvents.ListSubscriptionsAsync(CancellationToken.None))
            .Where(s => s.Endpoint == name).Select(s => s.EventType)];

    // Posts one of the page's forms; the page it answers with, after the redirect if there is one.
    private static async Task<string> PostAsync(ConsoleClient client, string handler, params (string Key, string Value)[] fields)
    {
        using var response = await client.Http.PostAsync($"/webhooks?handler={handler}",
            ConsoleClient.Form([("__RequestVerificationToken", await client.TokenAsync("/webhooks")), .. fields]));
        return response.StatusCode == HttpStatusCode.Redirect
            ? await client.Http.GetStringAsync(response.Headers.Location!.OriginalString)
            : await response.EnsureSuccessStatusCode().Content.ReadAsStringAsync();
    }

    private static string ShownSecret(string html) =>
        SecretShown().Match(html) is { Success: true } match ? WebUtility.HtmlDecode(match.Groups[1].Value) : throw new InvalidOperationException("no secret shown:\n" + html);

    private static string Unique() => $"console-{Guid.NewGuid():N}"[..24];

    [GeneratedRegex("<code id=\"secret\">(whsec_[^<]+)</code>")]
    private static partial Regex SecretShown();
}
