using System.Diagnostics;
using System.Globalization;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.Shared.Contract;

namespace Notifications.Harness;

/// <summary>
/// The webhook or push receiver alone, the HTTP analogue of the SMTP ceiling: a fresh receiver process (the pipeline's,
/// verifying every signature and token) blasted by N concurrent senders in this process that share one h2 client, as a
/// channel's handlers share one, with the pipeline rows' content (<see cref="ReceiverLoad"/>); counted by the receiver
/// (distinct ids accepted) over the window after a second's warm-up. A refused request fails the ceiling.
/// </summary>
internal static class HttpReceiverCeiling
{
    private static readonly TimeSpan Warm = TimeSpan.FromSeconds(1);

    public static async Task<CeilingResult> MeasureAsync(BenchEnvironment env, HarnessOptions options, int senders)
    {
        string channel = options.Channel;
        // The pipeline's receiver may still be on ReceiverPort (and the next): the ceiling takes the two after.
        int port = options.ReceiverPort + 2;
        string directory = Path.Combine(env.OutputDirectory, $"ceiling-{channel}-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}");
        Directory.CreateDirectory(directory);
        Console.WriteLine($"==> ceiling: the {channel} receiver alone on :{port}, {senders} concurrent senders sharing one h2 client, {options.CeilingDuration.TotalSeconds:F0} s");
        using var keys = channel == NotificationChannels.Push ? new PushTestKeys() : null;
        string secret = "whsec_" + Convert.ToBase64String(System.Security.Cryptography.RandomNumberGenerator.GetBytes(24));
        if (keys is not null)
        {
            PushKeyFiles.Write(keys, directory, port);
        }

        await using var receiver = await ReceiverProcess.StartAsync(channel, port, keys is null ? ["--secret", secret] : ["--keys", directory], directory);
        using var client = receiver.CreateSenderClient();
        var load = keys is null
            ? ReceiverLoad.Webhook(port, secret)
            : await ReceiverLoad.PushAsync(port, keys, new BenchChannel(channel, PushProviders: options.PushProviders), client);
        var (messages, seconds, failed) = await BlastAsync(receiver, client, load, senders, options.CeilingDuration);
        var counts = await receiver.CountsAsync();
        if (failed > 0 || counts.Refused > 0)
        {
            throw new InvalidOperationException($"the {channel} receiver refused {counts.Refused} and the senders saw {failed} failures: see {directory}");
        }

        var result = new CeilingResult(channel, $"{channel} receiver alone, {senders} h2 senders (counted by the receiver)", messages, seconds);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {messages:N0} accepted by the receiver in {seconds:F1} s = {result.PerMinute:N0}/min ({counts.Accepted:N0} in all, {counts.Duplicates} duplicates)"));
        return result;
    }

    private static async Task<(long Messages, double Seconds, long Failed)> BlastAsync(
        ReceiverProcess receiver, HttpClient client, ReceiverLoad load, int senders, TimeSpan duration)
    {
        long next = 0;
        long failed = 0;
        var clock = Stopwatch.StartNew();
        var sending = Enumerable.Range(0, senders).Select(_ => Task.Run(async () =>
        {
            while (clock.Elapsed < Warm + duration)
            {
                using var request = load.Request(Interlocked.Increment(ref next));
                using var response = await client.SendAsync(request);
                if (!response.IsSuccessStatusCode)
                {
                    Interlocked.Increment(ref failed);
                }
            }
        })).ToArray();
        await Task.Delay(Warm);
        var start = await receiver.CountsAsync();
        var window = Stopwatch.StartNew();
        await Task.Delay(duration);
        var end = await receiver.CountsAsync();
        double seconds = window.Elapsed.TotalSeconds;
        await Task.WhenAll(sending);
        return (end.Distinct - start.Distinct, seconds, Interlocked.Read(ref failed));
    }
}
