using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Contract;

namespace Notifications.Admin;

/// <summary>
/// <c>categories put | list</c>: what notifications are about (security, orders, marketing), which of them no subscriber can
/// opt out of, and whether a subscriber without a preference gets each on email and push (docs/audiences.md).
/// </summary>
internal static class CategoryCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("categories", "Notification categories: critical or not, and each channel's default for subscribers without a preference");
        command.Subcommands.Add(Put(context, console));
        command.Subcommands.Add(List(context, console));
        return command;
    }

    private static Command Put(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var name = new Argument<string>("name")
        {
            Description = $"The category (1-{AudienceRules.MaxCategoryNameLength} lower-case letters, digits, '.', '_', '-'), e.g. security, orders, marketing",
            CustomParser = r => AudienceRules.CategoryName(r.Tokens.Single().Value) is { } error ? Error(r, error, "") : r.Tokens.Single().Value,
        };
        var critical = new Option<bool>("--critical") { Description = "No subscriber can opt out of it (security codes, legal notices); their preferences are ignored" };
        var description = new Option<string?>("--description")
        {
            Description = "What it is for (at most 200 characters)",
            CustomParser = r => r.Tokens.Single().Value is { Length: > 200 } text ? Error<string?>(r, $"--description is {text.Length} characters, the limit is 200", null) : r.Tokens.Single().Value,
        };
        var defaults = new Option<Dictionary<string, bool>>("--default")
        {
            Description = $"A channel's default, CHANNEL=on|off ({string.Join(", ", AudienceRules.Channels)}); repeat it per channel. A channel not named is on",
            Arity = ArgumentArity.ZeroOrMore,
            DefaultValueFactory = _ => [],
            CustomParser = ParseDefaults,
        };
        var command = new Command("put", "Create or replace a category: --critical, --description and its --default values, all as given (a replaced category keeps only the defaults named now)")
        {
            name, critical, description, defaults,
        };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string category = parsed.GetValue(name)!;
            bool isCritical = parsed.GetValue(critical);
            var channelDefaults = parsed.GetValue(defaults)!;
            await admin.DatabaseAsync(async () =>
            {
                await admin.Audiences.PutCategoryAsync(category, isCritical, parsed.GetValue(description), channelDefaults, ct);
                return true;
            });
            await console.Out.WriteLineAsync($"Put category {category} ({(isCritical ? "critical: cannot be opted out" : "can be opted out")}; defaults: {Defaults(channelDefaults)}).");
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command List(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("list", "List the categories: name, critical or not, each channel's default, description");
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var categories = await admin.DatabaseAsync(() => admin.Audiences.ListCategoriesAsync(ct));
            await console.Out.WriteLineAsync($"{categories.Count} categor{(categories.Count == 1 ? "y" : "ies")}");
            foreach (var c in categories)
            {
                await console.Out.WriteLineAsync(
                    $"{c.Name,-24}  {(c.Critical ? "critical" : "optional"),-8}  {Defaults(c.Defaults),-22}  {c.Description?.ReplaceLineEndings(" ") ?? ""}");
            }

            return ExitCodes.Success;
        });
        return command;
    }

    private static string Defaults(IReadOnlyDictionary<string, bool> defaults) =>
        string.Join(", ", AudienceRules.Channels.Select(channel => $"{channel} {(defaults.GetValueOrDefault(channel, true) ? "on" : "off")}"));

    private static Dictionary<string, bool> ParseDefaults(System.CommandLine.Parsing.ArgumentResult result)
    {
        var defaults = new Dictionary<string, bool>(StringComparer.Ordinal);
        foreach (string token in result.Tokens.Select(t => t.Value))
        {
            int equals = token.IndexOf('=', StringComparison.Ordinal);
            string channel = equals < 0 ? token : token[..equals], value = equals < 0 ? "" : token[(equals + 1)..].ToLower(CultureInfo.InvariantCulture);
            string? error = AudienceRules.Channel(channel) is { } bad ? $"--default {token}: {bad}"
                : value is not ("on" or "off") ? $"--default {token}: expected CHANNEL=on or CHANNEL=off"
                : defaults.ContainsKey(channel) ? $"--default {token}: {channel} is named twice"
                : null;
            if (error is not null)
            {
                return Error(result, error, defaults);
            }

            defaults[channel] = value == "on";
        }

        return defaults;
    }

    private static T Error<T>(System.CommandLine.Parsing.ArgumentResult result, string message, T value)
    {
        result.AddError(message);
        return value;
    }
}
