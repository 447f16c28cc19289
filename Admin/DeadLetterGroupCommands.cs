using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data.Operations;

namespace Notifications.Admin;

/// <summary>
/// <c>dead-letters groups | requeue-group | purge-group | jobs</c>: dead letters by reason class, and the bulk jobs the
/// console runs, here queued and run in this process with progress printed (or only queued, with --queue-only).
/// </summary>
internal static class DeadLetterGroupCommands
{
    public static IEnumerable<Command> Create(Func<ParseResult, AdminContext> context, AdminConsole console) =>
        [Groups(context, console), Job(AdminJobKinds.Requeue, context, console), Job(AdminJobKinds.Purge, context, console), Jobs(context, console)];

    private static Command Groups(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var after = new Option<string?>("--after") { Description = "Only groups after this reason class: the next page after a page ending with it" };
        var limit = new Option<int>("--limit") { Description = "At most this many groups (1-500)", DefaultValueFactory = _ => 50 };
        var command = new Command("groups", "Dead letters grouped by reason class (the reason with addresses, GUIDs and digits taken out): count, first, latest") { after, limit };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var groups = await admin.DatabaseAsync(() => admin.DeadLetterGroups.ListGroupsAsync(parsed.GetValue(after), Math.Clamp(parsed.GetValue(limit), 1, 500), ct));
            foreach (var g in groups)
            {
                await console.Out.WriteLineAsync(FormattableString.Invariant($"{(g.IsMore ? $"{IDeadLetterGroupStore.CountCap}+" : g.Count.ToString(CultureInfo.InvariantCulture)),10}  {ShowCommand.Time(g.FirstAt)}  {ShowCommand.Time(g.LastAt)}  {(g.ReasonClass.Length == 0 ? "(unclassified)" : g.ReasonClass.ReplaceLineEndings(" "))}"));
            }

            await console.Out.WriteLineAsync(FormattableString.Invariant($"{groups.Count} group(s)"));
            return ExitCodes.Success;
        });
        return command;
    }

    private static Command Job(string kind, Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var group = new Option<string?>("--group") { Description = "The reason class of the group, as 'dead-letters groups' prints it" };
        var ids = new Option<long[]>("--ids") { Description = "Notification ids instead of a group", AllowMultipleArgumentsPerToken = true };
        var queueOnly = new Option<bool>("--queue-only") { Description = "Queue the job for a runner (the console) and print its id, instead of running it here" };
        var yes = PurgeCommand.Yes();
        var command = new Command($"{kind}-group", $"{(kind == AdminJobKinds.Requeue ? "Requeue" : "Purge (asks first)")} a group of dead letters (or those of some ids) as a job with persisted progress") { group, ids, queueOnly };
        if (kind == AdminJobKinds.Purge)
        {
            command.Options.Add(yes);
        }

        command.Validators.Add(r =>
        {
            if ((r.GetValue(group) is null) == (r.GetValue(ids) is not { Length: > 0 }))
            {
                r.AddError("choose either --group <reason class> or --ids <id> ...");
            }
        });
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var selection = parsed.GetValue(group) is { } g ? DeadLetterSelection.Group(g) : DeadLetterSelection.Ids(parsed.GetValue(ids)!);
            // Purging is for good, as 'purge dead-letters' is: asked first, unless --yes.
            if (kind == AdminJobKinds.Purge && !await PurgeCommand.ConfirmAsync(console, parsed.GetValue(yes), $"This deletes the dead letters of {selection} for good."))
            {
                return ExitCodes.Failed;
            }

            long id = await admin.DatabaseAsync(() => admin.Jobs.CreateAsync(kind, selection, $"{Environment.UserName} (command line)", ct));
            await console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"Job {id}: {kind} {selection}, queued."));
            if (parsed.GetValue(queueOnly))
            {
                return ExitCodes.Success;
            }

            var runner = admin.JobRunner($"admin-{Environment.MachineName}-{Environment.ProcessId}");
            var job = await admin.DatabaseAsync(() => runner.RunNextAsync(id, WriteProgressAsync, ct));
            await console.Out.WriteLineAsync(job is null ? $"Job {id} was taken by another runner." : Line(job));
            return job is { State: "done" } ? ExitCodes.Success : ExitCodes.Failed;

            Task WriteProgressAsync(AdminJob progress) => console.Out.WriteLineAsync(Line(progress));
        });
        return command;
    }

    private static Command Jobs(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var before = new Option<long?>("--before") { Description = "Only jobs below this id (the next page)" };
        var command = new Command("jobs", "The bulk requeue and purge jobs, newest first: state and progress") { before };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            foreach (var job in await admin.DatabaseAsync(() => admin.Jobs.ListAsync(parsed.GetValue(before), 20, ct)))
            {
                await console.Out.WriteLineAsync(Line(job));
            }

            return ExitCodes.Success;
        });
        return command;
    }

    internal static string Line(AdminJob job) => FormattableString.Invariant(
        $"Job {job.Id}: {job.Kind} {job.Selection}, {job.State}: {job.Done} of {job.Total?.ToString(CultureInfo.InvariantCulture) ?? "?"} done ({Percent(job)}), {job.Failed} not found{(job.LastError is { } e ? $"; {e}" : "")}");

    private static string Percent(AdminJob job) =>
        job.Total is { } total and > 0 ? FormattableString.Invariant($"{100.0 * (job.Done + job.Failed) / total:0} %") : job.IsFinished ? "100 %" : "0 %";
}
