using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data.Audiences;

namespace Notifications.Admin;

/// <summary><c>topics list</c>: the audience registry's topics with their number of subscribers.</summary>
internal static class TopicCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("topics", "The audience registry's topics: made when an app subscribes the first subscriber (ISubscriberRegistry.SubscribeAsync)");
        command.Subcommands.Add(List(context, console));
        return command;
    }

    private static Command List(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var limit = new Option<int>("--limit")
        {
            Description = "Show no more than this many, by name",
            DefaultValueFactory = _ => 1000,
            CustomParser = r => int.TryParse(r.Tokens.Single().Value, NumberStyles.None, CultureInfo.InvariantCulture, out int value) && value >= 1
                ? value
                : Error(r, $"--limit must be a whole number of at least 1, not '{r.Tokens.Single().Value}'"),
        };
        var command = new Command("list", "List the topics: name, subscribers, since") { limit };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var topics = await admin.DatabaseAsync(() => admin.Audiences.ListTopicsAsync(after: null, parsed.GetValue(limit), ct));
            await console.Out.WriteLineAsync($"{topics.Count} topic{(topics.Count == 1 ? "" : "s")}");
            foreach (var t in topics)
            {
                await console.Out.WriteLineAsync(
                    $"{t.Name,-40}  {(t.IsMore ? $"{IAudienceStore.SubscriberCountCap}+" : t.Subscribers.ToString(CultureInfo.InvariantCulture)),10} subscriber{(t.Subscribers == 1 ? "" : "s")}  since {t.CreatedAt.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture)} UTC");
            }

            return ExitCodes.Success;
        });
        return command;
    }

    private static int Error(System.CommandLine.Parsing.ArgumentResult result, string message)
    {
        result.AddError(message);
        return 0;
    }
}
