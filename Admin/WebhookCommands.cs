using System.CommandLine;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.Admin;

/// <summary>
/// <c>webhooks add | list | disable | enable | rotate-secret</c>: the endpoints webhook rows are sent to. A secret is printed
/// once, when it is made (add, rotate-secret); list never shows one. URLs are shown as scheme, host and port (their path and
/// query may hold the receiver's token).
/// </summary>
internal static class WebhookCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("webhooks", "Webhook endpoints: where rows of channel 'webhook' go (recipient = the endpoint's name); consumers see a change within Webhooks:RefreshInterval");
        command.Subcommands.Add(Add(context, console));
        command.Subcommands.Add(List(context, console));
        command.Subcommands.Add(Disable(context, console));
        command.Subcommands.Add(Enable(context, console));
        command.Subcommands.Add(Rotate(context, console));
        return command;
    }

    private static Command Add(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = Name("The endpoint's name, which webhook rows carry as their recipient (lower-case letters, digits, '.', '_', '-')");
        var url = new Argument<string>("url") { Description = "Where to POST: an absolute https URL (http only to a loopback host, with --allow-private)" };
        var allowPrivate = new Option<bool>("--allow-private")
        {
            Description = "Allow a host that resolves to a loopback, link-local or private address (off: refused against server-side request forgery)",
        };
        var command = new Command("add", "Register an endpoint and print its new signing secret (shown this once)") { name, url, allowPrivate };
        command.SetAction(async (parsed, ct) =>
        {
            string endpoint = parsed.GetValue(name)!, target = parsed.GetValue(url)!;
            bool privateAllowed = parsed.GetValue(allowPrivate);
            var checkedUrl = await CheckUrlAsync(target, privateAllowed, ct);
            await using var admin = context(parsed);
            string secret = NewSecret();
            if (!await admin.DatabaseAsync(() => admin.WebhookEndpoints.AddAsync(endpoint, target, secret, privateAllowed, ct)))
            {
                throw new AdminException($"a webhook endpoint named '{endpoint}' exists already ('webhooks list' shows it)", ExitCodes.Failed);
            }

            await console.Out.WriteLineAsync(
                $"Added webhook endpoint {endpoint} -> {WebhookUrlRedaction.Redact(checkedUrl)}{(privateAllowed ? " (private addresses allowed)" : "")}.");
            await console.Out.WriteLineAsync($"Signing secret (shown once; give it to the receiver): {secret}");
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command List(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("list", "List the endpoints: name, state, URL host (never its path: it may hold a token), secrets in use (never the secrets), since");
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var endpoints = await admin.DatabaseAsync(() => admin.WebhookEndpoints.ListAsync(ct));
            await console.Out.WriteLineAsync($"{endpoints.Count} webhook endpoint{(endpoints.Count == 1 ? "" : "s")}");
            var now = DateTimeOffset.UtcNow;
            foreach (var e in endpoints)
            {
                string state = e.DisabledAt is { } at ? $"disabled {Utc(at)}: {e.DisabledReason?.ReplaceLineEndings(" ")}" : "enabled";
                string secrets = e.SigningSecrets(now).Count == 2 ? $"2 secrets (previous until {Utc(e.PreviousSecretUntil!.Value)})" : "1 secret";
                await console.Out.WriteLineAsync(
                    $"{e.Name,-24}  {Shown(e.Url)}  {secrets}{(e.AllowPrivate ? ", private allowed" : "")}, since {Utc(e.CreatedAt)}; {state}");
            }

            return ExitCodes.Success;
        });
        return command;
    }

    private static Command Disable(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = Name("The endpoint to disable");
        var reason = new Option<string>("--reason") { Description = "Why (kept with the endpoint, and in each dead letter)", DefaultValueFactory = _ => "disabled by an operator" };
        var command = new Command("disable", "Stop sending to an endpoint: its webhooks are dead-lettered with the reason until 'enable'") { name, reason };
        command.SetAction((parsed, ct) => SwitchAsync(context(parsed), console, parsed.GetValue(name)!, "Disabled", "disabled already",
            (store, endpoint) => store.DisableAsync(endpoint, parsed.GetValue(reason)!, ct), ct));
        return command;
    }

    private static Command Enable(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = Name("The endpoint to enable again");
        var command = new Command("enable", "Send to a disabled endpoint again (webhooks dead-lettered meanwhile stay so: 'dead-letters requeue')") { name };
        command.SetAction((parsed, ct) => SwitchAsync(context(parsed), console, parsed.GetValue(name)!, "Enabled", "enabled already",
            (store, endpoint) => store.EnableAsync(endpoint, ct), ct));
        return command;
    }

    private static Command Rotate(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = Name("The endpoint whose secret to replace");
        var overlap = new Option<TimeSpan>("--overlap")
        {
            Description = "How long the old secret keeps signing beside the new one (e.g. 24h, 30m, 0), while the receiver switches",
            DefaultValueFactory = _ => TimeSpan.FromHours(24),
            CustomParser = r => AdminDurations.TryParse(r.Tokens.Single().Value, out var value)
                ? value
                : Error(r, $"--overlap must be a duration such as 24h, 30m, 90s or 0, not '{r.Tokens.Single().Value}'", TimeSpan.Zero),
        };
        var command = new Command("rotate-secret", "Make a new signing secret and print it (shown once); the old one signs too for --overlap") { name, overlap };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string endpoint = parsed.GetValue(name)!, secret = NewSecret();
            var keep = parsed.GetValue(overlap);
            if (!await admin.DatabaseAsync(() => admin.WebhookEndpoints.RotateSecretAsync(endpoint, secret, keep, ct)))
            {
                throw Unknown(endpoint);
            }

            await console.Out.WriteLineAsync($"Rotated the secret of webhook endpoint {endpoint}; the previous one signs too for {keep}.");
            await console.Out.WriteLineAsync($"New signing secret (shown once; give it to the receiver): {secret}");
            return ExitCodes.Success;
        });
        return command;
    }

    // Disable or enable: the change, or why there was none (no such endpoint, or it is in that state already).
    private static async Task<int> SwitchAsync(
        AdminContext context, AdminConsole console, string endpoint, string done, string already,
        Func<IWebhookEndpointStore, string, Task<bool>> change, CancellationToken cancellationToken)
    {
        await using var admin = context;
        if (!await admin.DatabaseAsync(() => change(admin.WebhookEndpoints, endpoint)))
        {
            throw await NotChangedAsync(admin, endpoint, already, cancellationToken);
        }

        await console.Out.WriteLineAsync($"{done} webhook endpoint {endpoint}.");
        return ExitCodes.Success;
    }

    // At registration: the URL's form, then where its host resolves to now (the consumer checks again at every connection).
    private static async Task<Uri> CheckUrlAsync(string url, bool allowPrivate, CancellationToken cancellationToken)
    {
        if (WebhookUrlRules.Validate(url, allowPrivate, out var uri) is { } invalid)
        {
            throw new AdminException(invalid, ExitCodes.Usage);
        }

        IPAddress[] addresses;
        try
        {
            addresses = IPAddress.TryParse(uri!.IdnHost, out var literal) ? [literal] : await Dns.GetHostAddressesAsync(uri.IdnHost, cancellationToken);
        }
        catch (SocketException ex)
        {
            throw new AdminException($"webhook host '{uri!.IdnHost}' does not resolve: {ex.Message}", ExitCodes.Usage, ex);
        }

        if (WebhookUrlRules.CheckAddresses(uri.IdnHost, addresses, allowPrivate) is { } refused)
        {
            throw new AdminException(refused, ExitCodes.Usage);
        }

        return uri;
    }

    // The URL's path and query may hold the receiver's token: shown as scheme, host and port only, like a secret.
    private static string Shown(string url) => Uri.TryCreate(url, UriKind.Absolute, out var parsed) ? WebhookUrlRedaction.Redact(parsed) : "(not a URL)";

    private static async Task<AdminException> NotChangedAsync(AdminContext admin, string name, string already, CancellationToken cancellationToken) =>
        await admin.DatabaseAsync(() => admin.WebhookEndpoints.FindAsync(name, cancellationToken)) is null
            ? Unknown(name)
            : new AdminException($"webhook endpoint '{name}' is {already}; nothing changed", ExitCodes.Failed);

    private static AdminException Unknown(string name) =>
        new($"no webhook endpoint is named '{name}' ('webhooks list' shows them)", ExitCodes.Failed);

    // Standard Webhooks' form: whsec_ and a base64 key of 24 to 64 random bytes; 32 as HMAC-SHA256's block-friendly size.
    private static string NewSecret() => "whsec_" + Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));

    private static Argument<string> Name(string description) => new("name")
    {
        Description = description,
        CustomParser = r => WebhookRules.ValidateEndpointName(r.Tokens.Single().Value) is { } error ? Error(r, error, "") : r.Tokens.Single().Value,
    };

    private static T Error<T>(System.CommandLine.Parsing.ArgumentResult result, string message, T value)
    {
        result.AddError(message);
        return value;
    }

    private static string Utc(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) + "Z";
}
