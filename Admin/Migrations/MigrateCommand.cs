using System.CommandLine;
using System.Diagnostics;
using System.Globalization;

namespace Notifications.Admin.Migrations;

/// <summary>
/// <c>migrate</c>: applies the migrations the schema's journal lacks (docs/database.md); <c>--list</c> shows where each
/// stands, <c>--dry-run</c> what would run. Runs as the schema owner's login, never as a worker's role.
/// </summary>
internal static class MigrateCommand
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var list = new Option<bool>("--list")
        {
            Description = "Show every migration: applied (and when), pending, changed (a repeatable file edited since it ran), or in the journal but not in this version; change nothing",
        };
        var dryRun = new Option<bool>("--dry-run") { Description = "Show what migrate would apply, in order; change nothing" };
        var scripts = new Option<DirectoryInfo?>("--scripts")
        {
            HelpName = "DIR",
            Description = "Take the migrations from DIR, laid out as db/postgres/ is (NNN_*.sql, repeatable/*.sql), instead of those built into the tool",
        };
        var wait = new Option<TimeSpan>("--wait")
        {
            HelpName = "DURATION",
            Description = "While the database does not answer yet (starting, not yet reachable), try again every 2 s for up to DURATION "
                + "(e.g. 2m, 90s) before failing; errors that waiting cannot cure (a wrong password, a failed script) fail at once. Default 0: one try",
            DefaultValueFactory = _ => TimeSpan.Zero,
            CustomParser = r => AdminDurations.TryParse(r.Tokens.Single().Value, out var value)
                ? value
                : Error(r, $"--wait must be a duration such as 2m, 90s or 0, not '{r.Tokens.Single().Value}'"),
        };
        var command = new Command(
            "migrate",
            "Apply the database migrations the schema lacks (those of db/postgres or db/sqlserver, by Database:Provider), each numbered one once, "
            + "repeatable ones when their text changed, and record each in the schema's journal (migration_journal). Run it as the schema owner's "
            + "login (--database or Database__ConnectionString), before starting this version's workers. Safe to run again: an up-to-date schema is left alone.")
        {
            list, dryRun, scripts, wait,
        };
        command.Validators.Add(result =>
        {
            if (result.GetValue(list) && result.GetValue(dryRun))
            {
                result.AddError("--list and --dry-run: give one of them");
            }
        });
        command.SetAction(async (parsed, cancellationToken) =>
        {
            await using var admin = context(parsed);
            var options = admin.Database;
            var directory = parsed.GetValue(scripts);
            var migrator = Migrator.For(options, directory is null ? null : MigrationScripts.FromDirectory(directory.FullName));
            await console.Out.WriteLineAsync(
                $"{migrator.Database}, schema {migrator.Schema} (journal {migrator.Schema}.{Migrator.JournalTable}); migrations {migrator.Scripts.Source}");
            // The first look at the journal, retried for --wait while the database does not answer yet.
            var states = await admin.DatabaseAsync(() => DatabaseWait.UntilAnswersAsync(
                () => migrator.ListAsync(cancellationToken), parsed.GetValue(wait), console.Out, cancellationToken));
            if (parsed.GetValue(list) || parsed.GetValue(dryRun))
            {
                await (parsed.GetValue(list) ? MigrationOutput.ListAsync(console.Out, states) : MigrationOutput.DryRunAsync(console.Out, states));
                return ExitCodes.Success;
            }

            return await ApplyAsync(admin, migrator, console, cancellationToken);
        });
        return command;
    }

    private static async Task<int> ApplyAsync(AdminContext admin, Migrator migrator, AdminConsole console, CancellationToken cancellationToken)
    {
        var stopwatch = Stopwatch.StartNew();
        var run = await admin.DatabaseAsync(() => migrator.RunAsync(
            (name, took) => console.Out.WriteLine(Invariant($"  applied  {name}  ({took.TotalMilliseconds:N0} ms)")), cancellationToken));
        if (!run.Successful)
        {
            // One line: Npgsql's message puts the position on lines of its own.
            string error = string.Join("; ", run.Error!.Message.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries));
            string where = run.FailedScript is { } file
                ? $"migration {file} failed: {error}. {file} is not in the journal: fix it, then run migrate again (it runs whole again; {run.Applied.Count} migration(s) before it were applied and journaled)"
                : $"migrate failed before any migration ran: {error}";
            throw new AdminException(where, ExitCodes.Failed, run.Error);
        }

        await console.Out.WriteLineAsync(run.Applied.Count == 0
            ? Invariant($"Up to date: all {migrator.Scripts.Scripts.Count} migrations are in the journal, nothing to apply ({stopwatch.Elapsed.TotalSeconds:0.00} s).")
            : Invariant($"Applied {run.Applied.Count} migration(s) in {stopwatch.Elapsed.TotalSeconds:0.00} s."));
        return ExitCodes.Success;
    }

    private static TimeSpan Error(System.CommandLine.Parsing.ArgumentResult result, string message)
    {
        result.AddError(message);
        return TimeSpan.Zero;
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
