using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data.Operations;

namespace Notifications.Admin;

/// <summary>
/// <c>find &lt;text&gt;</c>: notifications by id, idempotency key, recipient address or subscriber id, highest id first, a page
/// at a time (<c>--before</c> the last id shown), each with its state; the console's search runs the same operation.
/// </summary>
internal static class FindCommand
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var text = new Argument<string>("text") { Description = "What to look for: a notification id, an idempotency key, a recipient address or a subscriber id (exact)" };
        var by = new Option<NotificationSearchKind?>("--by") { Description = "Search only as this: Id, IdempotencyKey, Recipient or Subscriber (default: every kind the text may be)" };
        var before = new Option<long?>("--before") { Description = "Only ids below this one: the next page after a page ending with it" };
        var limit = new Option<int>("--limit") { Description = "At most this many (1-100)", DefaultValueFactory = _ => 20 };
        limit.Validators.Add(r =>
        {
            if (r.GetValueOrDefault<int>() is < 1 or > 100)
            {
                r.AddError("--limit must be 1-100");
            }
        });
        var command = new Command("find", "Find notifications by id, idempotency key, recipient or subscriber: id, where found, state; then 'show <id>' for one's story") { text, by, before, limit };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var result = await admin.DatabaseAsync(() => admin.Story.FindAsync(parsed.GetValue(text)!, parsed.GetValue(by), parsed.GetValue(before), parsed.GetValue(limit), ct));
            if (result.Message is { } message)
            {
                await console.Out.WriteLineAsync(message);
                return ExitCodes.Failed;
            }

            foreach (var hit in result.Hits)
            {
                var status = await admin.DatabaseAsync(() => admin.Status.GetAsync(hit.NotificationId, ct));
                await console.Out.WriteLineAsync(FormattableString.Invariant($"{hit.NotificationId,20}  {hit.Source,-9} {status.State,-14} {(status.At is { } at ? ShowCommand.Time(at) : "")}"));
            }

            if (result.Next is { } next)
            {
                await console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"more: --before {next}"));
            }

            return ExitCodes.Success;
        });
        return command;
    }
}
