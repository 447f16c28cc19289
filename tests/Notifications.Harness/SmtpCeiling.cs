using System.Diagnostics;
using System.Globalization;
using Microsoft.Extensions.Logging.Abstractions;
using Notifications.Consumer.Channels.Email;

namespace Notifications.Harness;

/// <summary>SMTP alone: H of the project's own SmtpEmailSender, one connection each, sending to a private smtp-sink.</summary>
internal static class SmtpCeiling
{
    public static async Task<CeilingResult> MeasureAsync(string sinkExecutable, int port, int connections, TimeSpan duration)
    {
        Console.WriteLine($"==> ceiling: SMTP, {connections} SmtpEmailSender connection(s) to smtp-sink :{port}, {duration.TotalSeconds:F0} s");
        using var sink = await SmtpSinkProcess.StartAsync(sinkExecutable, port);
        var smtp = new SmtpOptions { Host = "127.0.0.1", Port = port, Security = SmtpSecurity.None };
        var (id, to, subject, _) = BrokerCeiling.Sample();
        var (_, _, body) = BenchDatabase.Row(id);
        var message = new EmailMessage(id, to, subject, body, false, DateTimeOffset.UtcNow);
        long sent = 0;
        var clock = Stopwatch.StartNew();
        var warm = TimeSpan.FromSeconds(1);
        long sinkAtStart = 0;
        var senders = Enumerable.Range(0, connections).Select(_ => Task.Run(async () =>
        {
            await using var sender = new SmtpEmailSender(smtp, NullLogger<SmtpEmailSender>.Instance);
            while (clock.Elapsed < warm + duration)
            {
                await sender.SendAsync(message, CancellationToken.None);
                Interlocked.Increment(ref sent);
            }
        })).ToArray();
        await Task.Delay(warm);
        sinkAtStart = sink.Messages;
        var window = Stopwatch.StartNew();
        await Task.Delay(duration);
        long messages = sink.Messages - sinkAtStart;
        double seconds = window.Elapsed.TotalSeconds;
        await Task.WhenAll(senders);
        var result = new CeilingResult("smtp", $"SmtpEmailSender x {connections} to smtp-sink (counted by the sink)", messages, seconds);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {messages:N0} received by the sink in {seconds:F1} s = {result.PerMinute:N0}/min (client counted {Interlocked.Read(ref sent):N0} in all)"));
        return result;
    }
}
