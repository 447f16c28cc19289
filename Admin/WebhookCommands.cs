using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Contract;

namespace Notifications.Admin;

/// <summary>
/// <c>webhooks add | list | disable | enable | rotate-secret | subscribe | unsubscribe</c>: the endpoints webhook rows are sent
/// to, and the outcome events each takes. A secret is printed
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
        command.Subcommands.Add(Subscribe(context, console, "subscribe", WebhookOperations.SubscribeAsync,
            "Send the endpoint these outcome events (docs/outcome-events.md): what became of each notification"));
        command.Subcommands.Add(Subscribe(context, console, "unsubscribe", WebhookOperations.UnsubscribeAsync, "Stop sending the endpoint these outcome events"));
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
            await using var admin = context(parsed);
            var added = await WebhookOperations.AddAsync(admin, parsed.GetValue(name)!, parsed.GetValue(url)!, parsed.GetValue(allowPrivate), ct);
            await console.Out.WriteLineAsync(added.Message);
            await console.Out.WriteLineAsync($"Signing secret (shown once; give it to the receiver): {added.Secret}");
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
            var events = await WebhookOperations.SubscriptionsAsync(admin, ct);
            await console.Out.WriteLineAsync($"{endpoints.Count} webhook endpoint{(endpoints.Count == 1 ? "" : "s")}");
            var now = DateTimeOffset.UtcNow;
            foreach (var e in endpoints)
            {
                string state = e.DisabledAt is { } at ? $"disabled {Utc(at)}: {e.DisabledReason?.ReplaceLineEndings(" ")}" : "enabled";
                string secrets = e.SigningSecrets(now).Count == 2 ? $"2 secrets (previous until {Utc(e.PreviousSecretUntil!.Value)})" : "1 secret";
                await console.Out.WriteLineAsync(
                    $"{e.Name,-24}  {WebhookOperations.Shown(e.Url)}  {secrets}{(e.AllowPrivate ? ", private allowed" : "")}, since {Utc(e.CreatedAt)}; {state}"
                    + (events.Contains(e.Name) ? $"; events: {string.Join(" ", events[e.Name])}" : ""));
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
        command.SetAction((parsed, ct) => SayAsync(context(parsed), console, admin => WebhookOperations.DisableAsync(admin, parsed.GetValue(name)!, parsed.GetValue(reason)!, ct)));
        return command;
    }

    private static Command Enable(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = Name("The endpoint to enable again");
        var command = new Command("enable", "Send to a disabled endpoint again (webhooks dead-lettered meanwhile stay so: 'dead-letters requeue')") { name };
        command.SetAction((parsed, ct) => SayAsync(context(parsed), console, admin => WebhookOperations.EnableAsync(admin, parsed.GetValue(name)!, ct)));
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
            var rotated = await WebhookOperations.RotateSecretAsync(admin, parsed.GetValue(name)!, parsed.GetValue(overlap), ct);
            await console.Out.WriteLineAsync(rotated.Message);
            await console.Out.WriteLineAsync($"New signing secret (shown once; give it to the receiver): {rotated.Secret}");
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command Subscribe(
        Func<ParseResult, AdminContext> context, AdminConsole console, string verb,
        Func<AdminContext, string, IReadOnlyList<string>, CancellationToken, Task<string>> operation, string description)
    {
        var name = Name("The endpoint");
        var types = new Argument<string[]>("event-types")
        {
            Description = $"One or more of: {string.Join(" ", Notifications.Shared.Outcomes.OutcomeEventTypes.All)}",
            Arity = ArgumentArity.OneOrMore,
        };
        var command = new Command(verb, description) { name, types };
        command.SetAction((parsed, ct) => SayAsync(context(parsed), console, admin => operation(admin, parsed.GetValue(name)!, parsed.GetValue(types)!, ct)));
        return command;
    }

    // An operation that answers in words: printed, exit 0 (its failures are AdminExceptions).
    private static async Task<int> SayAsync(AdminContext context, AdminConsole console, Func<AdminContext, Task<string>> operation)
    {
        await using var admin = context;
        await console.Out.WriteLineAsync(await operation(admin));
        return ExitCodes.Success;
    }

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
