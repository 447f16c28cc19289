using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data;

namespace Notifications.Admin;

/// <summary>
/// <c>show &lt;id&gt;</c>: what happened to one notification, from the database alone (the schema's
/// <c>notification_status</c> function): waiting, in flight, sent, maybe sent, suppressed, opted out, dead-lettered, rejected, or unknown (exit 1).
/// </summary>
internal static class ShowCommand
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var id = new Argument<long>("id")
        {
            Description = "The notification id (the outbox row's id)",
            CustomParser = r =>
            {
                string token = r.Tokens.Single().Value;
                if (long.TryParse(token, NumberStyles.None, CultureInfo.InvariantCulture, out long value) && value > 0)
                {
                    return value;
                }

                r.AddError($"id must be a positive whole number (a notification id), not '{token}'");
                return default;
            },
        };
        var command = new Command("show", "What happened to one notification: waiting (and until when), in flight, sent (when, on which attempt), maybe sent (why), suppressed, opted out (who), dead-lettered (why, when) or rejected (why); from the database") { id };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            long notification = parsed.GetValue(id);
            var status = await admin.DatabaseAsync(() => admin.Status.GetAsync(notification, ct));
            await WriteAsync(console.Out, status);
            return status.IsUnknown ? ExitCodes.Failed : ExitCodes.Success;
        });
        return command;
    }

    internal static async Task WriteAsync(TextWriter output, NotificationStatus status)
    {
        await output.WriteLineAsync(Invariant($"Notification {status.NotificationId}: {Label(status.State)}"));
        await output.WriteLineAsync($"  state:       {status.State}");
        if (status.At is { } at)
        {
            await output.WriteLineAsync($"  {AtLabel(status.State) + ":",-12} {Time(at)}");
        }

        if (status.NotBefore is { } notBefore)
        {
            await output.WriteLineAsync($"  not before:  {Time(notBefore)}");
        }

        if (status.Attempts is { } attempts)
        {
            await output.WriteLineAsync(Invariant($"  attempts:    {attempts}"));
        }

        if (status.Reason is { } reason)
        {
            await output.WriteLineAsync($"  reason:      {reason.ReplaceLineEndings(" ")}");
        }

        await output.WriteLineAsync($"  detail:      {status.Detail}");
    }

    private static string Label(string state) => state switch
    {
        "waiting" => "waiting in the outbox",
        "in_flight" => "in flight",
        "sent" => "sent",
        "maybe_sent" => "maybe sent (outcome unknown)",
        "suppressed" => "suppressed, not sent",
        "opted_out" => "opted out, not sent",
        "dead_lettered" => "dead-lettered",
        "rejected" => "rejected",
        "unknown" => "unknown id",
        _ => state,
    };

    private static string AtLabel(string state) => state switch
    {
        "waiting" => "inserted",
        "in_flight" => "marked",
        "sent" => "sent at",
        "maybe_sent" => "recorded",
        "suppressed" => "recorded",
        "opted_out" => "recorded",
        "dead_lettered" => "dead at",
        "rejected" => "rejected at",
        _ => "at",
    };

    private static string Time(DateTimeOffset at) => at.ToUniversalTime().ToString("yyyy-MM-dd HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

    private static string Invariant(FormattableString text) => FormattableString.Invariant(text);
}
