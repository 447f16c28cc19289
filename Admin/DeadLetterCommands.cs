using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data.Operations;

namespace Notifications.Admin;

/// <summary><c>dead-letters list | show | requeue</c>.</summary>
internal static class DeadLetterCommands
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("dead-letters", "Look at and requeue the messages of the dead-letter queue");
        command.Subcommands.Add(List(context, console));
        command.Subcommands.Add(Show(context, console));
        command.Subcommands.Add(Requeue(context, console));
        foreach (var bulk in DeadLetterGroupCommands.Create(context, console))
        {
            command.Subcommands.Add(bulk);
        }

        return command;
    }

    private static Command List(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var limit = Limit();
        var command = new Command("list", "List dead letters (left in the queue): position, notification id, attempts, when, reason (and, without an id, type and the start of the body)") { limit };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            await using var connection = await admin.ConnectAsync(ct);
            var queue = new DeadLetterQueue(connection, admin.Rabbit);
            var letters = await queue.BrowseAsync(parsed.GetValue(limit), ct);
            uint depth = await queue.CountAsync(ct);
            await console.Out.WriteLineAsync($"{queue.Name}: {depth} dead letter(s){(depth > letters.Count ? $", the first {letters.Count} shown" : "")}");
            if (letters.Count > 0)
            {
                await console.Out.WriteLineAsync("     #  notification  attempts  dead-lettered (UTC)   reason");
            }

            foreach (var letter in letters)
            {
                await console.Out.WriteLineAsync(FormattableString.Invariant(
                    $"{letter.Position,6}  {Id(letter),12}  {letter.Attempts?.ToString(CultureInfo.InvariantCulture) ?? "-",8}  {letter.DeadAt?.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) ?? "-",-20}  {OneLine(letter.Reason)}{IdLess(letter)}"));
            }

            return ExitCodes.Success;
        });
        return command;
    }

    private static Command Show(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var position = new Argument<int?>("n") { Description = "Position in 'dead-letters list' (1 = oldest)", Arity = ArgumentArity.ZeroOrOne };
        var id = new Option<long?>("--id") { Description = "Notification id instead of a position" };
        var limit = Limit();
        var command = new Command("show", "Show one dead letter in full: reason, attempts, headers and the original payload") { position, id, limit };
        command.Validators.Add(r =>
        {
            if (!Parsed(r))
            {
                return;
            }

            bool byPosition = r.GetValue(position) is not null, byId = r.GetValue(id) is not null;
            if (byPosition == byId)
            {
                r.AddError("give either a position n (see 'dead-letters list') or --id <notification id>, not both");
            }
            else if (r.GetValue(position) is < 1)
            {
                r.AddError("n is a position in the list and starts at 1");
            }
        });
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            await using var connection = await admin.ConnectAsync(ct);
            var letters = await new DeadLetterQueue(connection, admin.Rabbit).BrowseAsync(parsed.GetValue(limit), ct);
            var letter = parsed.GetValue(position) is { } n
                ? letters.FirstOrDefault(l => l.Position == n)
                : letters.FirstOrDefault(l => l.NotificationId == parsed.GetValue(id));
            if (letter is null)
            {
                throw new AdminException($"no such dead letter ({(parsed.GetValue(position) is { } p ? $"position {p}" : $"notification id {parsed.GetValue(id)}")}; {letters.Count} looked at)", ExitCodes.Failed);
            }

            await WriteAsync(console.Out, letter);
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command Requeue(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var all = new Option<bool>("--all") { Description = "Requeue every dead letter" };
        var reason = new Option<string?>("--reason") { Description = "Only those whose reason contains this text (case-insensitive)" };
        var id = new Option<long?>("--id") { Description = "Only the dead letter of this notification id" };
        var command = new Command("requeue", "Move dead letters back to the work queue (attempts reset); get, publish with confirm, then ack") { all, reason, id };
        command.Validators.Add(r =>
        {
            if (!Parsed(r))
            {
                return;
            }

            bool filtered = r.GetValue(reason) is not null || r.GetValue(id) is not null;
            if (r.GetValue(all) == filtered)
            {
                r.AddError("choose what to requeue: --all, or --reason <text> and/or --id <notification id>");
            }
        });
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            string? text = parsed.GetValue(reason);
            long? notification = parsed.GetValue(id);
            await using var connection = await admin.ConnectAsync(ct);
            var result = await admin.DatabaseAsync(() => admin.Bulk.MoveAsync(
                connection,
                AdminJobKinds.Requeue,
                letter => (text is null || letter.Reason.Contains(text, StringComparison.OrdinalIgnoreCase))
                          && (notification is null || letter.NotificationId == notification),
                wanted: null,
                progress: null,
                ct));
            var moved = result.Moved;
            await console.Out.WriteLineAsync($"Requeued {moved.Count} dead letter(s) to '{admin.Rabbit.Queue}'{(moved.Count > 0 ? ": " + string.Join(", ", moved.Select(Id)) : "")}");
            await console.Out.WriteLineAsync($"Removed {result.RowsRemoved} row(s) from {admin.Database.Schema}.dead_letter.");
            return ExitCodes.Success;
        });
        return command;
    }

    private static async Task WriteAsync(TextWriter output, DeadLetter letter)
    {
        await output.WriteLineAsync(FormattableString.Invariant($"Dead letter #{letter.Position}"));
        await output.WriteLineAsync($"  notification id:  {letter.NotificationId?.ToString(CultureInfo.InvariantCulture) ?? "none: the body holds no notification id"}");
        await output.WriteLineAsync($"  reason:           {letter.Reason}");
        await output.WriteLineAsync($"  attempts:         {letter.Attempts?.ToString(CultureInfo.InvariantCulture) ?? "-"}");
        await output.WriteLineAsync($"  dead-lettered at: {letter.DeadAt?.ToString("O", CultureInfo.InvariantCulture) ?? "-"}");
        await output.WriteLineAsync($"  content type:     {letter.Properties.ContentType ?? "-"}");
        await output.WriteLineAsync($"  type:             {letter.Properties.Type ?? "-"}");
        await output.WriteLineAsync($"  message id:       {letter.Properties.MessageId ?? "-"}");
        foreach (var (name, _) in letter.Properties.Headers ?? new Dictionary<string, object?>())
        {
            await output.WriteLineAsync($"  header {name}: {DeadLetter.Text(letter.Properties.Headers, name)}");
        }

        await output.WriteLineAsync(FormattableString.Invariant($"Original payload ({letter.Body.Length} bytes):"));
        await output.WriteLineAsync(letter.Payload());
    }

    private static Option<int> Limit()
    {
        return new Option<int>("--limit")
        {
            Description = "Look at no more than this many from the head of the queue",
            DefaultValueFactory = _ => 1000,
            CustomParser = r =>
            {
                if (int.TryParse(r.Tokens.Single().Value, NumberStyles.None, CultureInfo.InvariantCulture, out int value) && value >= 1)
                {
                    return value;
                }

                r.AddError($"--limit must be at least 1, not '{r.Tokens.Single().Value}'");
                return default;
            },
        };
    }

    // A value that did not parse is reported by the parser already; reading it here would throw.
    private static bool Parsed(System.CommandLine.Parsing.CommandResult result) =>
        result.Children.All(child => child switch
        {
            System.CommandLine.Parsing.OptionResult o => o.Implicit || o.Tokens.Count == 0 || !HasErrors(o),
            System.CommandLine.Parsing.ArgumentResult a => !HasErrors(a),
            _ => true,
        });

    private static bool HasErrors(System.CommandLine.Parsing.SymbolResult result)
    {
        try
        {
            _ = result switch
            {
                System.CommandLine.Parsing.OptionResult o => o.GetValueOrDefault<object?>(),
                System.CommandLine.Parsing.ArgumentResult a => a.GetValueOrDefault<object?>(),
                _ => null,
            };
            return false;
        }
        catch (InvalidOperationException)
        {
            return true;
        }
    }

    private static string Id(DeadLetter letter) => Id(letter.NotificationId);

    private static string Id(long? notificationId) => notificationId?.ToString(CultureInfo.InvariantCulture) ?? "(no id)";

    // A message without a notification id is told apart by what it is: its type and the start of its body.
    private static string IdLess(DeadLetter letter) => letter.NotificationId is null ? $"  [{letter.Description(60)}]" : "";

    private static string OneLine(string text) => text.ReplaceLineEndings(" ");
}
