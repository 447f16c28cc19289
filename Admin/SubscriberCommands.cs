using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Contract;
using Notifications.Shared.Data.Audiences;

namespace Notifications.Admin;

/// <summary><c>subscribers show &lt;id&gt;</c>: one person of the audience registry, with every contact point, topic and preference.</summary>
internal static class SubscriberCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("subscribers", "The audience registry's subscribers, written by apps through the client package (ISubscriberRegistry)");
        command.Subcommands.Add(Show(context, console));
        return command;
    }

    private static Command Show(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var id = new Argument<string>("id")
        {
            Description = "The app's user id the subscriber was upserted with",
            CustomParser = r => AudienceRules.SubscriberId(r.Tokens.Single().Value) is { } error ? Error(r, error) : r.Tokens.Single().Value,
        };
        var command = new Command("show", "Show a subscriber: locale, time zone, contact points (alive or dead, and why), topics, preferences") { id };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string subscriberId = parsed.GetValue(id)!;
            var subscriber = await admin.DatabaseAsync(() => admin.Audiences.FindSubscriberAsync(subscriberId, ct))
                ?? throw new AdminException($"there is no subscriber '{subscriberId}' (apps add them with ISubscriberRegistry.UpsertSubscriberAsync)", ExitCodes.Failed);
            await WriteAsync(console, subscriber);
            return ExitCodes.Success;
        });
        return command;
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
