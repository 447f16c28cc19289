using MimeKit;
using Notifications.Client;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Shutdown;

namespace Notifications.IntegrationTests.Sending;

/// <summary>DKIM: a message signed by the consumer verifies as the receiving server has it; a bad key stops the worker at start.</summary>
[Collection("services")]
public sealed class DkimSigningTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromMinutes(2);

    [Fact]
    public async Task Pipeline_DkimConfigured_SignatureFromTheServersDumpVerifies()
    {
        await TestDatabase.CleanAsync();
        await using var broker = await TestBroker.CreateAsync();
        await using var sink = await SmtpSink.StartAsync();
        using var key = new DkimTestKey();
        await TestDatabase.EnqueueAsync(new NewNotification("user@example.test", "Grüße aus Köln", "Hallo 😀\nZeile zwei.\n.\nFrom here on")
        {
            Cc = "copy@example.test", ReplyTo = "help@example.test", Headers = new Dictionary<string, string> { ["X-Campaign"] = "spring" },
        });
        await TestDatabase.EnqueueAsync(new NewNotification("plain@example.test", "Plain", "ASCII only.") { IsHtml = true });

        await using (await WorkerHost.StartConsumerAsync(broker, sink,
            ("Dkim:Domain", "example.test"), ("Dkim:Selector", "mail2026"), ("Dkim:PrivateKeyFile", key.PrivateKeyFile)))
        await using (await WorkerHost.StartProducerAsync(broker))
        {
            await sink.WaitForMessagesAsync(2, Patience);
        }

        foreach (string file in sink.MessageFiles())
        {
            using MimeMessage received = SinkDump.LoadMessage(file);
            string signature = received.Headers[HeaderId.DkimSignature]!;
            Assert.Contains("d=example.test", signature, StringComparison.Ordinal);
            Assert.Contains("s=mail2026", signature, StringComparison.Ordinal);
            Assert.Contains("c=relaxed/relaxed", signature, StringComparison.Ordinal);
            Assert.True(key.Verifies(received), $"the DKIM signature of {file} does not verify");

            // The same check can fail: one changed header and the signature no longer holds.
            received.Subject += "!";
            Assert.False(key.Verifies(received));
        }
    }

    [Fact]
    public async Task Consumer_UnreadableDkimKey_ExitsNonZeroNamingTheKeyAndWhy()
    {
        string garbage = Path.GetTempFileName();
        await File.WriteAllTextAsync(garbage, "this is not a PEM key");
        try
        {
            var (exitCode, output) = await WorkerCommandLineTests.RunAsync("Consumer",
                $"--Database:ConnectionString={TestServices.PostgresConnectionString}",
                "--Dkim:Domain=example.test", "--Dkim:Selector=mail2026", $"--Dkim:PrivateKeyFile={garbage}");

            Assert.NotEqual(0, exitCode);
            Assert.Contains("error: invalid configuration:", output, StringComparison.Ordinal);
            Assert.Contains($"Dkim:PrivateKeyFile '{garbage}' cannot be used", output, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(garbage);
        }
    }

    [Fact]
    public async Task Consumer_MissingDkimKeyFile_ExitsNonZeroNamingTheFile()
    {
        var (exitCode, output) = await WorkerCommandLineTests.RunAsync("Consumer",
            $"--Database:ConnectionString={TestServices.PostgresConnectionString}",
            "--Dkim:Domain=example.test", "--Dkim:Selector=mail2026", "--Dkim:PrivateKeyFile=/run/secrets/no-such-dkim-key");

        Assert.Equal(2, exitCode);
        Assert.Contains("Dkim:PrivateKeyFile '/run/secrets/no-such-dkim-key' cannot be used", output, StringComparison.Ordinal);
    }
}
