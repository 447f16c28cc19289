using System.CommandLine;
using System.Globalization;
using Notifications.Admin.Operations;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Audiences;

namespace Notifications.Admin;

/// <summary>
/// <c>subscribers show | opt-out | opt-in | delete</c>: one person of the audience registry, with every contact point, topic and
/// preference; an operator's opt-out or opt-in for the person (a support request); the erasure of a subscriber.
/// </summary>
internal static class SubscriberCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("subscribers", "The audience registry's subscribers, written by apps through the client package (ISubscriberRegistry)");
        command.Subcommands.Add(Show(context, console));
        command.Subcommands.Add(SetPreference(context, console, enabled: false));
        command.Subcommands.Add(SetPreference(context, console, enabled: true));
        command.Subcommands.Add(Delete(context, console));
        return command;
    }

    // Found as the console's subscriber page finds one (SubscriberLookup): by the app's id, an email address or a push recipient.
    private static Command Show(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var text = new Argument<string>("id-or-address")
        {
            Description = "The app's user id, or an email address or push recipient (fcm:…, apns:…) of one of its contact points",
        };
        var command = new Command("show", "Show a subscriber: locale, time zone, contact points (alive or dead, and why), topics, preferences") { text };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var found = await admin.DatabaseAsync(() => admin.Subscribers.SearchAsync(parsed.GetValue(text), ct));
            if (found.Subscriber is not { } subscriber)
            {
                throw new AdminException(found.Message ?? Shared(found), ExitCodes.Failed);
            }

            await WriteAsync(console, subscriber);
            if (found.Pending > 0)
            {
                const int cap = SubscriberLookup.PendingCap;
                string pending = found.Pending > cap ? FormattableString.Invariant($"{cap:N0}+") : FormattableString.Invariant($"{found.Pending:N0}");
                await console.Out.WriteLineAsync($"live: {pending} notification(s) pending, not acked by its apps");
            }

            return ExitCodes.Success;
        });
        return command;
    }

    private static string Shared(SubscriberSearchResult found) =>
        $"{found.Matches.Count}{(found.MoreMatches ? "+" : "")} subscribers share that address: {string.Join(", ", found.Matches)}; show one by its id";

    // opt-out / opt-in ID CATEGORY CHANNEL: the preference row the app writes, written by an operator for the person.
    private static Command SetPreference(Func<ParseResult, AdminContext> context, AdminConsole console, bool enabled)
    {
        var id = SubscriberId();
        var category = new Argument<string>("category")
        {
            Description = "The category (scripts/admin categories list)",
            CustomParser = r => AudienceRules.CategoryName(r.Tokens.Single().Value) is { } error ? Error(r, error) : r.Tokens.Single().Value,
        };
        var channel = new Argument<string>("channel")
        {
            Description = $"The channel: {string.Join(" or ", AudienceRules.Channels)}",
            CustomParser = r => AudienceRules.Channel(r.Tokens.Single().Value) is { } error ? Error(r, error) : r.Tokens.Single().Value,
        };
        var command = enabled
            ? new Command("opt-in", "Opt a subscriber in to a category on a channel, for the person (over the category's default)") { id, category, channel }
            : new Command("opt-out", "Opt a subscriber out of a category on a channel, for the person (refused for a critical category)") { id, category, channel };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string subscriberId = parsed.GetValue(id)!, name = parsed.GetValue(category)!, on = parsed.GetValue(channel)!;
            var change = await admin.DatabaseAsync(() => admin.Audiences.SetPreferenceAsync(subscriberId, name, on, enabled, ct));
            return change switch
            {
                PreferenceChange.NoSubscriber => throw NoSubscriber(subscriberId),
                PreferenceChange.NoCategory => throw new AdminException($"there is no category '{name}' (scripts/admin categories put {name})", ExitCodes.Failed),
                PreferenceChange.Critical => throw new AdminException(
                    $"category '{name}' is critical: nobody can be opted out of it (scripts/admin categories put {name} without --critical makes it optional)", ExitCodes.Usage),
                _ => await WrittenAsync(console, $"Subscriber {subscriberId} opted {(enabled ? "in to" : "out of")} category {name} on {on}."),
            };
        });
        return command;
    }

    private static Command Delete(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var id = SubscriberId();
        var yes = PurgeCommand.Yes();
        var command = new Command(
            "delete",
            "Erase a subscriber: the row, its contact points, subscriptions and preferences (asks first). The suppression list and delivery records stay")
        {
            id, yes,
        };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string subscriberId = parsed.GetValue(id)!;
            if (!await PurgeCommand.ConfirmAsync(console, parsed.GetValue(yes), $"This erases subscriber {subscriberId} with its contact points, subscriptions and preferences."))
            {
                return ExitCodes.Failed;
            }

            var erased = await admin.DatabaseAsync(() => admin.Audiences.DeleteSubscriberAsync(subscriberId, ct)) ?? throw NoSubscriber(subscriberId);
            return await WrittenAsync(console, $"Deleted subscriber {subscriberId} with {erased.ContactPoints} contact point(s), {erased.Subscriptions} subscription(s) and {erased.Preferences} preference(s).");
        });
        return command;
    }

    private static Argument<string> SubscriberId() => new("id")
    {
        Description = "The app's user id the subscriber was upserted with",
        CustomParser = r => AudienceRules.SubscriberId(r.Tokens.Single().Value) is { } error ? Error(r, error) : r.Tokens.Single().Value,
    };

    private static AdminException NoSubscriber(string subscriberId) =>
        new($"there is no subscriber '{subscriberId}' (apps add them with ISubscriberRegistry.UpsertSubscriberAsync)", ExitCodes.Failed);

    private static async Task<int> WrittenAsync(AdminConsole console, string line)
    {
        await console.Out.WriteLineAsync(line);
        return ExitCodes.Success;
    }

    private static async Task WriteAsync(AdminConsole console, SubscriberDetails s)
    {
        await console.Out.WriteLineAsync($"Subscriber {s.Id}: locale {s.Locale}, time zone {s.TimeZone ?? "(none)"}, since {Utc(s.CreatedAt)}, updated {Utc(s.UpdatedAt)}");
        await console.Out.WriteLineAsync($"{s.ContactPoints.Count} contact point{(s.ContactPoints.Count == 1 ? "" : "s")}");
        foreach (var c in s.ContactPoints)
        {
            string state = c.DeadAt is { } dead ? $"dead since {Utc(dead)}: {c.DeadReason?.ReplaceLineEndings(" ")}" : "alive";
            string seen = c.LastSeenAt is { } at ? $", last seen {Utc(at)}" : "";
            await console.Out.WriteLineAsync($"  {c.Channel,-5}  {c.Address}{(c.AppId is null ? "" : $" (app {c.AppId})")}{seen}; {state}");
        }

        await console.Out.WriteLineAsync($"{s.Topics.Count} topic{(s.Topics.Count == 1 ? "" : "s")}{(s.Topics.Count == 0 ? "" : ": " + string.Join(", ", s.Topics))}");
        await console.Out.WriteLineAsync($"{s.Preferences.Count} preference{(s.Preferences.Count == 1 ? "" : "s")} (categories not listed follow their defaults: 'categories list')");
        foreach (var p in s.Preferences)
        {
            await console.Out.WriteLineAsync($"  {p.Category,-24}  {p.Channel,-5}  {(p.Enabled ? "opted in" : "opted out")}");
        }
    }

    private static string Utc(DateTime at) => at.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) + " UTC";

    private static string Error(System.CommandLine.Parsing.ArgumentResult result, string message)
    {
        result.AddError(message);
        return "";
    }
}
