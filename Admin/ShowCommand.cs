using System.CommandLine;
using System.Globalization;
using Notifications.Admin.Operations;
using Notifications.Shared.Data;
using Notifications.Shared.Data.Audiences;

namespace Notifications.Admin;

/// <summary>
/// <c>show &lt;id&gt;</c>: what happened to one notification, from the database alone (the schema's
/// <c>notification_status</c> function): waiting, in flight, sent, maybe sent, suppressed, opted out, dead-lettered, rejected, or unknown (exit 1);
/// then its story (<see cref="NotificationStory"/>, the console's story page's operation).
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
        var deliveries = new Option<int>("--deliveries")
        {
            Description = "For a notification to a subscriber or a topic: how many of its deliveries (of a live broadcast: its receipts) to list after the tally",
            DefaultValueFactory = _ => 10,
        };
        deliveries.Validators.Add(r =>
        {
            if (r.GetValueOrDefault<int>() is < 0 or > 10_000)
            {
                r.AddError("--deliveries must be 0-10000");
            }
        });
        var command = new Command("show", "What happened to one notification: waiting (and until when), in flight, sent (when, on which attempt), maybe sent (why), suppressed, opted out (who), dead-lettered (why, when) or rejected (why); for a subscriber or a topic, fanned out, with its deliveries by state; from the database") { id, deliveries };
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            long notification = parsed.GetValue(id);
            var story = await admin.DatabaseAsync(() => admin.Story.ReadAsync(notification, parsed.GetValue(deliveries), ct));
            var status = story.Status;
            await WriteAsync(console.Out, status);
            if (story.Live is { } live)
            {
                await WriteAsync(console.Out, live, DateTimeOffset.UtcNow);
            }

            await WriteAsync(console.Out, story.Deliveries);
            if (story.Broadcast is { } broadcast)
            {
                await WriteAsync(console.Out, broadcast);
            }

            await StoryOutput.WriteAsync(console.Out, story);
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

    // A live notification still in live_pending: not acked by any app of its subscriber yet (docs/live.md).
    internal static Task WriteAsync(TextWriter output, LivePendingState live, DateTimeOffset now)
    {
        string expiry = live.ExpiresAt switch
        {
            { } at when at <= now => $"expired unacked at {Time(at)} (not sent again)",
            { } at => $"until {Time(at)}",
            null => "no expiry",
        };
        string sent = live.AtMostOnce ? live.SentAt is { } sentAt ? $"; sent at most once, at {Time(sentAt)}" : "; at most once, not sent yet" : "";
        return output.WriteLineAsync($"  live:        not acked by {live.Subscriber}'s apps, pending since {Time(live.CreatedAt)}, {expiry}{sent}");
    }

    // A fan-out's deliveries: the tally by channel and state, then the first ones (nothing for any other notification).
    internal static async Task WriteAsync(TextWriter output, FanOutDeliveryReport report)
    {
        if (report.Tallies.Count == 0)
        {
            return;
        }

        await output.WriteLineAsync(Invariant($"  deliveries:  {report.Tallies.Sum(t => t.Count)}"));
        // By channel (none first: the subscribers without a contact point), then state; the same in both dialects.
        foreach (var tally in report.Tallies.OrderBy(t => t.Channel ?? "", StringComparer.Ordinal).ThenBy(t => t.State, StringComparer.Ordinal))
        {
            await output.WriteLineAsync(Invariant($"    {tally.Channel ?? "-",-6} {tally.State,-14} {tally.Count,10}"));
        }

        if (report.First.Count > 0)
        {
            await output.WriteLineAsync(Invariant($"  first {report.First.Count}:"));
            foreach (var d in report.First)
            {
                await output.WriteLineAsync(Invariant($"    {d.Id,-20} {d.Subscriber ?? "(erased)",-20} {d.Channel ?? "-",-6} {d.State,-14} {d.Address ?? "-"}"));
            }
        }
    }

    // A broadcast to a topic: its topic and mode, then its receipts by state and the first ones (docs/live.md#broadcasts-to-a-topic).
    internal static async Task WriteAsync(TextWriter output, LiveBroadcastReport broadcast)
    {
        string mode = broadcast.AtMostOnce ? "at most once" : "at least once";
        await output.WriteLineAsync($"  broadcast:   to topic {broadcast.Topic}, {mode}, written {Time(broadcast.CreatedAt)}, sent to apps that connect until {Time(broadcast.ExpiresAt)}");
        await output.WriteLineAsync(Invariant($"  receipts:    {broadcast.Tallies.Sum(t => t.Count)}{(broadcast.AtMostOnce ? "" : " (a subscriber sent it who has not acked has none)")}"));
        foreach (var tally in broadcast.Tallies)
        {
            await output.WriteLineAsync(Invariant($"    {tally.State,-14} {tally.Count,10}"));
        }

        if (broadcast.First.Count > 0)
        {
            await output.WriteLineAsync(Invariant($"  first {broadcast.First.Count}:"));
            foreach (var r in broadcast.First)
            {
                await output.WriteLineAsync($"    {r.Subscriber,-20} {r.State,-8} {Time(r.At)}");
            }
        }
    }

    private static string Label(string state) => state switch
    {
        "waiting" => "waiting in the outbox",
        "in_flight" => "in flight",
        "sent" => "sent",
        "maybe_sent" => "maybe sent (outcome unknown)",
        "suppressed" => "suppressed, not sent",
        "opted_out" => "opted out, not sent",
        "live_acked" => "not sent: an app acked its live copy",
        "dead_lettered" => "dead-lettered",
        "rejected" => "rejected",
        "unknown" => "unknown id",
        "fanned_out" => "fanned out",
        "no_such_audience" => "no such subscriber or topic, not sent",
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
        "live_acked" => "recorded",
        "dead_lettered" => "dead at",
        "rejected" => "rejected at",
        "fanned_out" => "finished",
        "no_such_audience" => "recorded",
        _ => "at",
    };

    internal static string Time(DateTimeOffset at) => at.ToUniversalTime().ToString("yyyy-MM-dd HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

    private static string Invariant(FormattableString text) => FormattableString.Invariant(text);
}
