using System.CommandLine;

namespace Notifications.Admin;

/// <summary><c>purge outbox | dead-letters</c>: deletes for good, after a typed confirmation (or --yes).</summary>
internal static class PurgeCommand
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("purge", "Delete every row of the outbox or every dead letter (asks first)");
        command.Subcommands.Add(Outbox(context, console));
        command.Subcommands.Add(DeadLetters(context, console));
        return command;
    }

    private static Command Outbox(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var yes = Yes();
        var command = new Command("outbox", "Delete every notification waiting in the outbox: they will never be sent") { yes };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            long rows = await admin.DatabaseAsync(() => admin.Outbox.CountAsync(ct));
            if (!await ConfirmAsync(console, parsed.GetValue(yes), $"This deletes {rows} row(s) from {admin.Database.Schema}.outbox; they will never be sent."))
            {
                return ExitCodes.Failed;
            }

            long deleted = await admin.DatabaseAsync(() => admin.Operations.PurgeOutboxAsync(ct));
            await console.Out.WriteLineAsync($"Deleted {deleted} row(s) from {admin.Database.Schema}.outbox.");
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command DeadLetters(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var yes = Yes();
        var command = new Command("dead-letters", "Delete every message of the dead-letter queue") { yes };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            await using var connection = await admin.ConnectAsync(ct);
            var queue = new DeadLetterQueue(connection, admin.Rabbit);
            uint count = await queue.CountAsync(ct);
            if (!await ConfirmAsync(console, parsed.GetValue(yes), $"This deletes {count} dead letter(s) from '{queue.Name}' for good."))
            {
                return ExitCodes.Failed;
            }

            var purgedAt = DateTimeOffset.UtcNow;
            uint purged = await queue.PurgeAsync(ct);
            await console.Out.WriteLineAsync($"Deleted {purged} dead letter(s) from '{queue.Name}'.");
            // The rows of what the queue held: a dead letter recorded after the purge (and so still queued) stays.
            long rows = await admin.DatabaseAsync(() => admin.DeadLetters.RemoveAllAsync(purgedAt, ct));
            await console.Out.WriteLineAsync($"Deleted {rows} row(s) from {admin.Database.Schema}.dead_letter.");
            return ExitCodes.Success;
        });
        return command;
    }

    internal static Option<bool> Yes() => new("--yes") { Description = "Do not ask for confirmation" };

    internal static async Task<bool> ConfirmAsync(AdminConsole console, bool yes, string what)
    {
        if (yes)
        {
            return true;
        }

        await console.Out.WriteAsync($"{what} Type 'yes' to continue: ");
        await console.Out.FlushAsync();
        string? answer = await console.In.ReadLineAsync();
        if (string.Equals(answer?.Trim(), "yes", StringComparison.Ordinal))
        {
            return true;
        }

        await console.Error.WriteLineAsync("Aborted: nothing was deleted (answer 'yes', or pass --yes).");
        return false;
    }
}
