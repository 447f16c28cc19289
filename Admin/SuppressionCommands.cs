using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data;

namespace Notifications.Admin;

/// <summary><c>suppression add | remove | list</c>: the addresses and domains no notification (or no bulk notification) goes to.</summary>
internal static class SuppressionCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("suppression", "The suppression list: addresses and domains that get no mail (or no bulk mail); consumers honor a change within Suppression:RefreshInterval");
        command.Subcommands.Add(Add(context, console));
        command.Subcommands.Add(Remove(context, console));
        command.Subcommands.Add(List(context, console));
        return command;
    }

    private static Command Add(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var key = Key("The address (user@example.com) or, with a leading @, the domain (@example.com) to suppress");
        var reason = Reason("Why: manual (the default), complaint, unsubscribed or hard_bounce", "manual");
        var allMail = new Option<bool>("--all-mail") { Description = "Stop every notification, not only bulk ones (a hard_bounce always stops every one)" };
        var note = new Option<string?>("--note") { Description = "A note kept with the entry (shown by 'suppression list')" };
        var command = new Command("add", "Suppress an address or a whole domain: bulk mail only unless --all-mail") { key, reason, allMail, note };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string normalized = parsed.GetValue(key)!, why = parsed.GetValue(reason)!;
            string scope = parsed.GetValue(allMail) || why == SuppressionReasons.HardBounce ? SuppressionReasons.AllScope : SuppressionReasons.BulkScope;
            bool added = await admin.DatabaseAsync(() => admin.Suppression.AddAsync(normalized, why, scope, parsed.GetValue(note), ct));
            await console.Out.WriteLineAsync(added
                ? $"Suppressed {normalized} ({why}, {Scope(scope)})."
                : $"{normalized} is already suppressed with the same or a wider scope; nothing changed ('suppression list' shows it).");
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command Remove(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var key = Key("The address or @domain to take off the list, as 'suppression list' shows it");
        var note = new Option<string?>("--note") { Description = "Why it is removed (kept with the removed entry, in place of its detail)" };
        var command = new Command("remove", "Take an address or a domain off the suppression list: mail to it goes again") { key, note };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            await console.Out.WriteLineAsync(await SuppressionOperations.RemoveAsync(admin, parsed.GetValue(key)!, parsed.GetValue(note), ct));
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command List(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var reason = Reason("Only entries of this reason: hard_bounce, complaint, unsubscribed, manual or unregistered (push tokens the provider dropped)", null);
        var limit = new Option<int>("--limit")
        {
            Description = "Show no more than this many, newest first",
            DefaultValueFactory = _ => 1000,
            CustomParser = r => int.TryParse(r.Tokens.Single().Value, NumberStyles.None, CultureInfo.InvariantCulture, out int value) && value >= 1
                ? value
                : Error(r, $"--limit must be a whole number of at least 1, not '{r.Tokens.Single().Value}'", 0),
        };
        var command = new Command("list", "List the entries in force: key, reason, scope, since, detail") { reason, limit };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var entries = await admin.DatabaseAsync(() => admin.Suppression.ListAsync(parsed.GetValue(reason), parsed.GetValue(limit), ct));
            await console.Out.WriteLineAsync($"{entries.Count} suppression entr{(entries.Count == 1 ? "y" : "ies")}{(parsed.GetValue(reason) is { } r ? $" with reason {r}" : "")}");
            if (entries.Count > 0)
            {
                await console.Out.WriteLineAsync($"{"address or @domain",-40}  {"reason",-12}  {"scope",-5}  {"since (UTC)",-19}  detail");
            }

            foreach (var e in entries)
            {
                await console.Out.WriteLineAsync(
                    $"{e.Address,-40}  {e.Reason,-12}  {e.Scope,-5}  {e.Since.UtcDateTime.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture),-19}  {e.Detail?.ReplaceLineEndings(" ") ?? ""}");
            }

            return ExitCodes.Success;
        });
        return command;
    }

    private static Argument<string> Key(string description) => new("address")
    {
        Description = description,
        CustomParser = r => SuppressionKeys.TryNormalize(r.Tokens.Single().Value, out string? error) is { } key ? key : Error(r, $"address: {error}", ""),
    };

    private static Option<string?> Reason(string description, string? defaultValue) => new("--reason")
    {
        Description = description,
        DefaultValueFactory = _ => defaultValue,
        CustomParser = r => SuppressionReasons.All.Contains(r.Tokens.Single().Value)
            ? r.Tokens.Single().Value
            : Error<string?>(r, $"--reason must be one of {string.Join(", ", SuppressionReasons.All)}, not '{r.Tokens.Single().Value}'", null),
    };

    private static T Error<T>(System.CommandLine.Parsing.ArgumentResult result, string message, T value)
    {
        result.AddError(message);
        return value;
    }

    private static string Scope(string scope) => scope == SuppressionReasons.AllScope ? "all mail" : "bulk mail only; add --all-mail to stop every notification";
}
