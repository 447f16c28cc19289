using System.CommandLine;
using System.Globalization;
using Notifications.Shared.Data;
using Notifications.Shared.Hosting;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Notifications.Admin;

/// <summary>
/// <c>status</c>: outbox backlog (database), queue depths and consumers (AMQP passive declares), delivery
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
        int exit = ExitCodes.Success;
        await output.WriteLineAsync(Invariant($"Notifications status at {DateTimeOffset.UtcNow:yyyy-MM-dd HH:mm:ss}Z"));
        try
        {
            long backlog = await admin.DatabaseAsync(() => admin.Outbox.CountAsync(cancellationToken));
            await output.WriteLineAsync(Invariant($"Outbox backlog        {backlog,12:N0} rows"));
            var slo = await admin.DatabaseAsync(() => admin.Operations.GetDeliveryWindowAsync(window, cancellationToken));
            await WriteDeliveriesAsync(output, slo);
        }
        catch (AdminException ex)
        {
            await error.WriteLineAsync($"error: {ex.Message}");
            exit = ex.ExitCode;
        }

        try
        {
            await WriteQueuesAsync(admin, output, cancellationToken);
        }
        catch (AdminException ex)
        {
            await error.WriteLineAsync($"error: {ex.Message}");
            exit = ex.ExitCode;
        }

        return exit;
    }

    private static async Task WriteDeliveriesAsync(TextWriter output, DeliveryWindow slo)
    {
        await output.WriteLineAsync(Invariant($"Deliveries in the last {slo.Window} (delivery log):"));
        await output.WriteLineAsync(Invariant($"  delivered           {slo.Delivered,12:N0}   {slo.RatePerSecond:F1}/s; last minute {slo.LastMinute / 60.0:F1}/s"));
        await output.WriteLineAsync($"  within 2 min (SLO)  {Percent(slo.SloRatio),12}");
        await output.WriteLineAsync($"  within 1 s          {Percent(slo.FastRatio),12}");
    }

    private static async Task WriteQueuesAsync(AdminContext admin, TextWriter output, CancellationToken cancellationToken)
    {
        var rabbit = admin.Rabbit;
        await using var connection = await admin.ConnectAsync(cancellationToken);
        var queues = rabbit.WorkQueues
            .SelectMany(work => Enumerable.Range(1, rabbit.RetryDelays.Length).Select(n => RabbitMqOptions.RetryQueue(work, n)).Prepend(work))
            .Append(rabbit.DeadLetterQueue)
            .Append(rabbit.DeadLetterInbox)
            .ToList();

        // The names column is as wide as the longest name (notifications.urgent.retry.4 is 28), so the counts line up.
        int width = Math.Max(22, queues.Max(queue => queue.Length));
        await output.WriteLineAsync($"{"Queues".PadRight(width + 2)}   ready   consumers");
        foreach (string queue in queues)
        {
            await output.WriteLineAsync($"  {queue.PadRight(width)} {await DescribeAsync(connection, queue, cancellationToken)}");
        }
    }

    private static async Task<string> DescribeAsync(IConnection connection, string queue, CancellationToken cancellationToken)
    {
        // A passive declare of a missing queue closes its channel: one channel per queue.
        await using var channel = await connection.CreateChannelAsync(cancellationToken: cancellationToken);
        try
        {
            var ok = await channel.QueueDeclarePassiveAsync(queue, cancellationToken);
            return Invariant($"{ok.MessageCount,7:N0}   {ok.ConsumerCount,9:N0}");
        }
        catch (OperationInterruptedException ex) when (ex.ShutdownReason?.ReplyCode == 404)
        {
            return "  (missing: no worker has declared it yet)";
        }
    }

    private static string Percent(double ratio) =>
        double.IsNaN(ratio) ? "n/a (none)" : (ratio * 100).ToString("F2", CultureInfo.InvariantCulture) + " %";

    private static string Invariant(FormattableString text) => FormattableString.Invariant(text);
}
