using System.CommandLine;
using System.Globalization;

namespace Notifications.Admin;

/// <summary>
/// <c>cleanup</c>: runs the retention cleanup now (the consumers run it every <c>Retention:Interval</c>):
/// deletes 'sent' delivery-log rows older than <c>Retention:DeliveryLog</c> and dead-letter rows older than
/// <c>Retention:DeadLetters</c>, in batches that skip locked rows. Safe beside running consumers and another cleanup.
/// </summary>
internal static class CleanupCommand
{
    public static Command Create(Func<ParseResult, AdminContext> context, AdminConsole console)
    {
        var command = new Command("cleanup", "Delete delivery-log and dead-letter rows older than the retention (Retention:DeliveryLog, Retention:DeadLetters), in small batches");
        command.SetAction(async (parsed, ct) =>
        {
            await using var admin = context(parsed);
            var cleanup = admin.Retention;
            var options = admin.RetentionOptions;
            var result = await admin.DatabaseAsync(() => cleanup.RunAsync(ct));
            await console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                $"Deleted {result.DeliveryLogRows:N0} delivery-log row(s) older than {options.DeliveryLog}, {result.DeadLetterRows:N0} dead-letter row(s) older than {options.DeadLetters}, {result.IdempotencyKeys:N0} idempotency key(s) older than {options.DeliveryLog}, {result.FanOuts:N0} finished fan-out(s) with {result.FanOutDeliveries:N0} delivery row(s) older than {options.DeliveryLog}, {result.ExpiredLive:N0} live notification(s) expired unacked longer ago than {options.DeliveryLog} and {result.OutcomeEvents:N0} outcome event(s) made before then ({result.Batches} batch(es) of at most {options.BatchSize})."));
            return ExitCodes.Success;
        });
        return command;
    }
}
