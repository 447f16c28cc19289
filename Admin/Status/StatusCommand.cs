using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data;

namespace Notifications.Admin.Status;

/// <summary>
/// <c>status</c>: outbox backlog per priority (database), queue depths and consumers (AMQP passive declares), delivery
/// rate and SLO over a window (the delivery log). Shows what it could reach; exits 3 if anything was not.
/// </summary>
internal static class StatusCommand
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var window = new Option<TimeSpan>("--window")
        {
            Description = "The window of the delivery rate and SLO, e.g. 00:05:00",
            DefaultValueFactory = _ => TimeSpan.FromMinutes(5),
            // Parsed here, not validated after: a validator reading an unparsable value would throw.
            CustomParser = r =>
            {
                if (TimeSpan.TryParse(r.Tokens.Single().Value, CultureInfo.InvariantCulture, out var value) && value > TimeSpan.Zero)
                {
                    return value;
                }

                r.AddError($"--window takes a positive duration such as 00:05:00, not '{r.Tokens.Single().Value}'");
                return default;
            },
        };
        var command = new Command("status", "Outbox backlog, queue depths and consumers, delivery rate and the delivery SLO") { window };
        command.SetAction(async (parsed, cancellationToken) =>
        {
            await using var admin = context(parsed);
            return await RunAsync(admin, parsed.GetValue(window), console.Out, console.Error, cancellationToken);
        });
        return command;
    }

    private static async Task<int> RunAsync(AdminContext admin, TimeSpan window, TextWriter output, TextWriter error, CancellationToken cancellationToken)
    {
        var report = await StatusReader.ReadAsync(admin, window, borrow: null, cancellationToken);
        await output.WriteLineAsync(Invariant($"Notifications status at {report.At:yyyy-MM-dd HH:mm:ss}Z"));
        if (report.Backlog is { } backlog)
        {
            await WriteBacklogAsync(output, backlog);
        }

        if (report.Deliveries is { } deliveries)
        {
            await WriteDeliveriesAsync(output, deliveries);
        }

        if (report.RateLimits is { Count: > 0 } limits)
        {
            await WriteRateLimitsAsync(output, limits);
        }

        if (report.Queues is { } queues)
        {
            await WriteQueuesAsync(output, queues);
        }

        foreach (var failure in report.Errors)
        {
            await error.WriteLineAsync($"error: {failure.Message}");
        }

        return report.ExitCode;
    }

    private static async Task WriteBacklogAsync(TextWriter output, OutboxBacklog backlog)
    {
        await output.WriteLineAsync($"Outbox backlog        {StatusFormat.Rows(backlog.Total, backlog.Capped),12} rows");
        await output.WriteLineAsync($"  urgent              {StatusFormat.Rows(backlog.Urgent, backlog.Urgent >= backlog.Cap),12}");
        await output.WriteLineAsync($"  normal              {StatusFormat.Rows(backlog.Normal, backlog.Normal >= backlog.Cap),12}");
        await output.WriteLineAsync($"  bulk                {StatusFormat.Rows(backlog.Bulk, backlog.Bulk >= backlog.Cap),12}");
    }

    private static async Task WriteDeliveriesAsync(TextWriter output, DeliveryWindow slo)
    {
        await output.WriteLineAsync(Invariant($"Deliveries in the last {slo.Window} (delivery log):"));
        await output.WriteLineAsync(Invariant($"  delivered           {slo.Delivered,12:N0}   {slo.RatePerSecond:F1}/s; last minute {slo.LastMinute / 60.0:F1}/s"));
        await output.WriteLineAsync($"  within 2 min (SLO)  {StatusFormat.Percent(slo.SloRatio),12}");
        await output.WriteLineAsync($"  within 1 s          {StatusFormat.Percent(slo.FastRatio),12}");
    }

    private static async Task WriteRateLimitsAsync(TextWriter output, IReadOnlyList<RateLimitState> limits)
    {
        await output.WriteLineAsync("Rate limits (rate_limit):");
        foreach (var limit in limits)
        {
            await output.WriteLineAsync($"  {limit.Name,-20} {StatusFormat.ConfiguredRate(limit),-10} {StatusFormat.RateLimit(limit)}");
        }
    }

    private static async Task WriteQueuesAsync(TextWriter output, IReadOnlyList<QueueDepth> queues)
    {
        // The names column is as wide as the longest name (notifications.urgent.retry.4 is 28), so the counts line up.
        int width = Math.Max(22, queues.Max(queue => queue.Name.Length));
        await output.WriteLineAsync($"{"Queues".PadRight(width + 2)}   ready   consumers");
        foreach (var queue in queues)
        {
            string depth = queue.Missing ? "  (missing: no worker has declared it yet)" : Invariant($"{queue.Ready,7:N0}   {queue.Consumers,9:N0}");
            await output.WriteLineAsync($"  {queue.Name.PadRight(width)} {depth}");
        }
    }

    private static string Invariant(FormattableString text) => FormattableString.Invariant(text);
}
